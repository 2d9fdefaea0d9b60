import { fromBase64Exact } from "./base64.js";
import { decodeMessage } from "./decode.js";
import type { CompressedMessage, EncryptedMessage } from "./envelope.js";
import { fail, messagingError, ok, type Result } from "./errors.js";
import { checkFreshness } from "./freshness.js";
import { parseJson, utf8Length } from "./json.js";
import {
  DEFAULT_TTL_SECONDS,
  MAX_CLOCK_SKEW_MS,
  MAX_JSON_DEPTH,
  MAX_MESSAGE_BYTES,
} from "./limits.js";
import type { PlainMessage, WireMessage } from "./messages.js";
import type { RateLimiter } from "./rate-limit.js";
import { ReplayWindow } from "./replay.js";
import {
  ED25519_PUBLIC_KEY_BYTES,
  type Ed25519Backend,
  type KeyLookup,
  nobleEd25519,
  verifyMessage,
} from "./signing.js";
import { PROTOCOL_VERSION } from "./version.js";

/**
 * The inbound pipeline: every message from the wire passes these stages in
 * this order, and each refusal has its own code:
 *
 * 1. size cap ............ `message_too_large`
 * 2. JSON ................ `invalid_json`, `message_too_deep`
 * 3. schema .............. `invalid_message`, `incompatible_version`
 * 4. signature ........... `signature_missing`, `unknown_sender`, `signature_invalid`
 * 5. freshness ........... `message_expired`, `message_from_future`
 * 6. replay .............. `replay_detected`, `replay_window_saturated`
 * 7. rate limit (opt.) ... `rate_limited`
 * 8. unwrap .............. decompression (`decompression_failed`,
 *                          `decompressed_too_large`) or decryption
 *                          (`not_a_recipient`, `decryption_failed`), then the
 *                          payload schema of the unwrapped message
 *
 * Cheap checks come first; the signature is checked before anything depends
 * on who sent the message, so rate limits charge verified senders and the
 * replay window only remembers authentic ids. An id is remembered once the
 * message passed replay and rate limiting, so a rate-limited message may be
 * retried. Unwrapping comes last: only an authenticated, fresh, unique
 * message costs inflation or decryption. `accept` never throws.
 */

export type InboundErrorCode =
  | "message_too_large"
  | "invalid_json"
  | "message_too_deep"
  | "invalid_message"
  | "incompatible_version"
  | "signature_missing"
  | "unknown_sender"
  | "signature_invalid"
  | "message_expired"
  | "message_from_future"
  | "replay_detected"
  | "replay_window_saturated"
  | "rate_limited"
  | "decompression_failed"
  | "decompressed_too_large"
  | "not_a_recipient"
  | "decryption_failed";

/** A message that passed the pipeline. */
export interface AcceptedMessage {
  /** The message as received and validated (possibly compressed or encrypted). */
  readonly wire: WireMessage;
  /** The readable message: decompressed, or decrypted when a decryptor is set; else the encrypted wire form. */
  readonly message: PlainMessage | EncryptedMessage;
  /** Whether its signature was verified (false only when unsigned messages are allowed). */
  readonly verified: boolean;
}

/** Turns a verified compressed message into its plain form. */
export type Decompressor = (
  message: CompressedMessage,
) => Result<PlainMessage, "decompression_failed" | "decompressed_too_large" | "invalid_message">;

/** Turns a verified encrypted message into its plain form. */
export type Decryptor = (
  message: EncryptedMessage,
) => Result<PlainMessage, "not_a_recipient" | "decryption_failed" | "invalid_message">;

export interface InboundOptions {
  /** §8.3 the sender's Ed25519 public key, by agent URI. */
  lookupKey: KeyLookup;
  /** Ed25519 implementation; the node entry passes the native one. Default noble. */
  ed25519?: Ed25519Backend;
  /** Refuse unsigned messages (§8.3 "recipients MUST verify"). Default true. */
  requireSignature?: boolean;
  /** Clock in ms. Default `Date.now`. */
  now?: () => number;
  maxMessageBytes?: number;
  maxJsonDepth?: number;
  maxClockSkewMs?: number;
  defaultTtlSeconds?: number;
  /** Our version; messages of another major are refused. Default {@link PROTOCOL_VERSION}. */
  ownVersion?: string;
  /** The replay window; a fresh one by default. Share one across connections of an agent. */
  replay?: ReplayWindow;
  /** §12.3 limits; none when absent. */
  rateLimiter?: RateLimiter;
  /** Needed to accept compressed messages (the node entry supplies gzip/brotli). */
  decompress?: Decompressor;
  /** Decrypts encrypted messages addressed to us; without it they are returned encrypted. */
  decrypt?: Decryptor;
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw messagingError("invalid_option", `${name} must be a positive finite number`, {
      details: { [name]: value },
    });
  }
  return value;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

export class InboundPipeline {
  readonly maxMessageBytes: number;
  readonly maxJsonDepth: number;
  readonly maxClockSkewMs: number;
  readonly defaultTtlSeconds: number;
  readonly replay: ReplayWindow;
  readonly #options: InboundOptions;
  readonly #backend: Ed25519Backend;
  readonly #now: () => number;

  constructor(options: InboundOptions) {
    this.#options = options;
    this.#backend = options.ed25519 ?? nobleEd25519;
    this.#now = options.now ?? Date.now;
    this.maxMessageBytes = positive(
      "maxMessageBytes",
      options.maxMessageBytes ?? MAX_MESSAGE_BYTES,
    );
    this.maxJsonDepth = positive("maxJsonDepth", options.maxJsonDepth ?? MAX_JSON_DEPTH);
    this.maxClockSkewMs = positive("maxClockSkewMs", options.maxClockSkewMs ?? MAX_CLOCK_SKEW_MS);
    this.defaultTtlSeconds = positive(
      "defaultTtlSeconds",
      options.defaultTtlSeconds ?? DEFAULT_TTL_SECONDS,
    );
    this.replay = options.replay ?? new ReplayWindow();
  }

  /** Runs one raw message (text or UTF-8 bytes) through every stage. Never throws. */
  async accept(input: string | Uint8Array): Promise<Result<AcceptedMessage, InboundErrorCode>> {
    try {
      return await this.#accept(input);
    } catch (cause) {
      // A throwing decryptor, decompressor or clock is the caller's fault, but must still be a typed refusal.
      return fail("invalid_message", "the message could not be processed", { cause });
    }
  }

  async #accept(input: string | Uint8Array): Promise<Result<AcceptedMessage, InboundErrorCode>> {
    // 1. size cap
    const size =
      typeof input === "string" ? stringBytes(input, this.maxMessageBytes) : input.length;
    if (size > this.maxMessageBytes) {
      return fail("message_too_large", `message exceeds ${this.maxMessageBytes} bytes`, {
        details: { maxMessageBytes: this.maxMessageBytes },
      });
    }
    // 2. JSON
    let text: string;
    if (typeof input === "string") text = input;
    else {
      try {
        text = utf8.decode(input);
      } catch (cause) {
        return fail("invalid_json", "the message is not UTF-8", { cause });
      }
    }
    const json = parseJson(text, this.maxJsonDepth);
    if (!json.ok) return json;
    // 3. schema
    const decoded = decodeMessage(json.value, this.#options.ownVersion ?? PROTOCOL_VERSION);
    if (!decoded.ok) return decoded;
    const wire = decoded.value;
    // 4. signature, over the canonical form of what was received
    const verified = await this.#verifySignature(json.value as Record<string, unknown>, wire);
    if (!verified.ok) return verified;
    // 5. freshness
    const now = this.#now();
    const fresh = checkFreshness(wire, {
      now,
      defaultTtlSeconds: this.defaultTtlSeconds,
      maxClockSkewMs: this.maxClockSkewMs,
    });
    if (!fresh.ok) return fresh;
    const deadline = fresh.value;
    // 6. replay (checked now, recorded after rate limiting)
    const replayed = this.replay.check(wire.id, deadline, now);
    if (!replayed.ok) return replayed;
    // 7. rate limit
    if (this.#options.rateLimiter !== undefined) {
      const limited = this.#options.rateLimiter.take(wire.from, wire);
      if (!limited.ok) return limited;
    }
    this.replay.record(wire.id, deadline, now);
    // 8. unwrap
    const message = this.#unwrap(wire);
    if (!message.ok) return message;
    return ok({ wire, message: message.value, verified: verified.value });
  }

  async #verifySignature(
    raw: Record<string, unknown>,
    wire: WireMessage,
  ): Promise<Result<boolean, "signature_missing" | "unknown_sender" | "signature_invalid">> {
    if (wire.signature === undefined && this.#options.requireSignature === false) return ok(false);
    return verifyMessage(raw, this.#options.lookupKey, this.#backend);
  }

  #unwrap(wire: WireMessage): Result<PlainMessage | EncryptedMessage, InboundErrorCode> {
    if ("compressedPayload" in wire && wire.compressedPayload !== undefined) {
      if (this.#options.decompress === undefined) {
        return fail("decompression_failed", "no decompressor is configured (use the node entry)");
      }
      return this.#options.decompress(wire as CompressedMessage);
    }
    if (wire.encrypted === true) {
      if (this.#options.decrypt === undefined) return ok(wire as EncryptedMessage);
      return this.#options.decrypt(wire as EncryptedMessage);
    }
    return ok(wire as PlainMessage);
  }
}

/** UTF-8 size of `text`, exact up to `cap + 1` (beyond the cap only "too large" matters). */
function stringBytes(text: string, cap: number): number {
  if (text.length > cap) return text.length;
  if (text.length * 3 <= cap) return text.length;
  return utf8Length(text);
}

/** Decodes a base64 Ed25519 public key of exactly 32 bytes. */
export function publicKeyFromBase64(text: string): Uint8Array | undefined {
  return fromBase64Exact(text, ED25519_PUBLIC_KEY_BYTES);
}
