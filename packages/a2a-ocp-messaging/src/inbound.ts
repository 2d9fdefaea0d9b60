import { fromBase64Exact } from "./base64.js";
import type { CompressedMessage, EncryptedMessage } from "./envelope.js";
import { fail, ok, type Result } from "./errors.js";
import type { PlainMessage, WireMessage } from "./messages.js";
import type { ReplayWindow } from "./replay.js";
import {
  defaultEd25519,
  ED25519_PUBLIC_KEY_BYTES,
  type Ed25519Backend,
  type KeyLookup,
  verifyMessage,
} from "./signing.js";
import { MessageStages, type StageOptions } from "./stages.js";

/**
 * The inbound pipeline: every message from the wire passes these stages in
 * this order, and each refusal has its own code:
 *
 * 1. size cap ............ `message_too_large`
 * 2. JSON ................ `invalid_json`, `duplicate_key`, `message_too_deep`
 * 3. schema .............. `invalid_message`, `incompatible_version`
 * 4. signature ........... `signature_missing`, `unknown_sender`, `signature_invalid`,
 *                            `signature_scheme_mismatch`
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
  | "duplicate_key"
  | "message_too_deep"
  | "invalid_message"
  | "incompatible_version"
  | "signature_missing"
  | "unknown_sender"
  | "signature_invalid"
  | "signature_scheme_mismatch"
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

/** The stages' limits and state (`StageOptions`), and what only the pipeline needs. */
export interface InboundOptions extends StageOptions {
  /** §8.3 the sender's Ed25519 public key, by agent URI. */
  lookupKey: KeyLookup;
  /** Ed25519 implementation. Default `defaultEd25519` (native in Node, noble in browsers). */
  ed25519?: Ed25519Backend;
  /** Refuse unsigned messages (§8.3 "recipients MUST verify"). Default true. */
  requireSignature?: boolean;
  /** Needed to accept compressed messages (the node entry supplies gzip/brotli). */
  decompress?: Decompressor;
  /** Decrypts encrypted messages addressed to us; without it they are returned encrypted. */
  decrypt?: Decryptor;
}

export class InboundPipeline {
  readonly maxMessageBytes: number;
  readonly maxJsonDepth: number;
  readonly maxClockSkewMs: number;
  readonly defaultTtlSeconds: number;
  readonly replay: ReplayWindow;
  readonly #options: InboundOptions;
  readonly #backend: Ed25519Backend;
  readonly #stages: MessageStages;

  constructor(options: InboundOptions) {
    this.#options = options;
    this.#backend = options.ed25519 ?? defaultEd25519();
    this.#stages = new MessageStages(options);
    this.maxMessageBytes = this.#stages.maxMessageBytes;
    this.maxJsonDepth = this.#stages.maxJsonDepth;
    this.maxClockSkewMs = this.#stages.maxClockSkewMs;
    this.defaultTtlSeconds = this.#stages.defaultTtlSeconds;
    this.replay = this.#stages.replay;
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
    // 1–3. size, JSON, schema
    const parsed = this.#stages.parse(input);
    if (!parsed.ok) return parsed;
    const { wire, json } = parsed.value;
    // 4. signature, over the canonical form of what was received
    const verified = await this.#verifySignature(json, wire);
    if (!verified.ok) return verified;
    // 5–7. freshness, replay, rate limit
    const admitted = this.#stages.admit(wire);
    if (!admitted.ok) return admitted;
    // 8. unwrap
    const message = this.#unwrap(wire);
    if (!message.ok) return message;
    return ok({ wire, message: message.value, verified: verified.value });
  }

  async #verifySignature(
    raw: Record<string, unknown>,
    wire: WireMessage,
  ): Promise<
    Result<
      boolean,
      "signature_missing" | "unknown_sender" | "signature_invalid" | "signature_scheme_mismatch"
    >
  > {
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

/** Decodes a base64 Ed25519 public key of exactly 32 bytes. */
export function publicKeyFromBase64(text: string): Uint8Array | undefined {
  return fromBase64Exact(text, ED25519_PUBLIC_KEY_BYTES);
}
