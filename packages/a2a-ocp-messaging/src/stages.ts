import { decodeMessage } from "./decode.js";
import { fail, messagingError, ok, type Result } from "./errors.js";
import { checkFreshness } from "./freshness.js";
import { isJsonObject, parseJson, utf8Length } from "./json.js";
import {
  DEFAULT_TTL_SECONDS,
  MAX_CLOCK_SKEW_MS,
  MAX_JSON_DEPTH,
  MAX_MESSAGE_BYTES,
} from "./limits.js";
import type { WireMessage } from "./messages.js";
import type { RateLimiter } from "./rate-limit.js";
import { ReplayWindow } from "./replay.js";
import { PROTOCOL_VERSION } from "./version.js";

/**
 * The stages every inbound message passes, shared by the agent-side
 * `InboundPipeline` and the hub, so the two cannot drift:
 *
 * - {@link MessageStages.parse}: 1. size cap, 2. JSON, 3. schema and version;
 * - (the caller verifies the signature: asynchronously with a key lookup in
 *   the pipeline, synchronously from registered profiles at the hub);
 * - {@link MessageStages.admit}: 5. freshness, 6. replay, 7. rate limit, and
 *   only then the id is remembered (a rate-limited message may be retried).
 */

export type ParseErrorCode =
  | "message_too_large"
  | "invalid_json"
  | "duplicate_key"
  | "message_too_deep"
  | "invalid_message"
  | "incompatible_version";

export type AdmitErrorCode =
  | "message_expired"
  | "message_from_future"
  | "replay_detected"
  | "replay_window_saturated"
  | "rate_limited";

export interface StageOptions {
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
  rateLimiter?: RateLimiter | undefined;
}

/** A message that passed size, JSON and schema: its decoded form and the JSON it was decoded from. */
export interface ParsedMessage {
  readonly wire: WireMessage;
  readonly json: Record<string, unknown>;
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

/** UTF-8 size of `text`, exact up to `cap + 1` (beyond the cap only "too large" matters). */
function stringBytes(text: string, cap: number): number {
  if (text.length > cap) return text.length;
  if (text.length * 3 <= cap) return text.length;
  return utf8Length(text);
}

export class MessageStages {
  readonly maxMessageBytes: number;
  readonly maxJsonDepth: number;
  readonly maxClockSkewMs: number;
  readonly defaultTtlSeconds: number;
  readonly replay: ReplayWindow;
  readonly #ownVersion: string;
  readonly #rateLimiter: RateLimiter | undefined;
  readonly #now: () => number;

  /** Throws `invalid_option` for a limit that is not a positive finite number. */
  constructor(options: StageOptions = {}) {
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
    this.#ownVersion = options.ownVersion ?? PROTOCOL_VERSION;
    this.#rateLimiter = options.rateLimiter;
    this.#now = options.now ?? Date.now;
  }

  /** Stages 1–3: size cap, JSON (UTF-8, depth), schema and version. Never throws. */
  parse(input: string | Uint8Array): Result<ParsedMessage, ParseErrorCode> {
    const size =
      typeof input === "string" ? stringBytes(input, this.maxMessageBytes) : input.length;
    if (size > this.maxMessageBytes) {
      return fail("message_too_large", `message exceeds ${this.maxMessageBytes} bytes`, {
        details: { maxMessageBytes: this.maxMessageBytes },
      });
    }
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
    const decoded = decodeMessage(json.value, this.#ownVersion);
    if (!decoded.ok) return decoded;
    // A value the schema accepted as a message is a JSON object.
    const record = isJsonObject(json.value) ? json.value : {};
    return ok({ wire: decoded.value, json: record });
  }

  /**
   * Stages 5–7 for a message whose signature the caller has checked:
   * freshness, replay, rate limit; then its id is remembered. On success,
   * the deadline (ms since the epoch) until which the id is remembered.
   */
  admit(wire: WireMessage): Result<number, AdmitErrorCode> {
    const now = this.#now();
    const fresh = checkFreshness(wire, {
      now,
      defaultTtlSeconds: this.defaultTtlSeconds,
      maxClockSkewMs: this.maxClockSkewMs,
    });
    if (!fresh.ok) return fresh;
    const deadline = fresh.value;
    const replayed = this.replay.check(wire.id, deadline, now);
    if (!replayed.ok) return replayed;
    if (this.#rateLimiter !== undefined) {
      const limited = this.#rateLimiter.take(wire.from, wire);
      if (!limited.ok) return limited;
    }
    this.replay.record(wire.id, deadline, now);
    return ok(deadline);
  }
}
