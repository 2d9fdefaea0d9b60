import { fail, messagingError, type Result } from "./errors.js";
import {
  RATE_LIMIT_BROADCASTS_PER_MINUTE,
  RATE_LIMIT_COLLECTIVE_QUERIES_PER_MINUTE,
  RATE_LIMIT_MAX_SENDERS,
  RATE_LIMIT_MESSAGES_PER_MINUTE,
  RATE_LIMIT_WINDOW_MS,
} from "./limits.js";
import { BROADCAST } from "./wire-patterns.js";

/**
 * §12.3 rate limits as token buckets per sender. Every message takes a token
 * from the sender's `messages` bucket; a broadcast also from `broadcasts`, an
 * `ocp.collective.query` also from `collectiveQueries`. A message is admitted
 * only if every bucket it needs has a token (all or nothing), and a refusal is
 * a typed `rate_limited` error naming the bucket and the wait, never a silent
 * drop. Buckets refill continuously at `limit / windowMs` tokens per ms.
 */

export type RateLimitBucket = "messages" | "broadcasts" | "collectiveQueries";

export interface RateLimitOptions {
  /** Messages per window per sender (default {@link RATE_LIMIT_MESSAGES_PER_MINUTE}). */
  messages?: number;
  /** Broadcasts per window per sender (default {@link RATE_LIMIT_BROADCASTS_PER_MINUTE}). */
  broadcasts?: number;
  /** Collective queries per window per sender (default {@link RATE_LIMIT_COLLECTIVE_QUERIES_PER_MINUTE}). */
  collectiveQueries?: number;
  /** Refill window in ms (default {@link RATE_LIMIT_WINDOW_MS}). */
  windowMs?: number;
  /** Most senders tracked (default {@link RATE_LIMIT_MAX_SENDERS}). */
  maxSenders?: number;
  /** Clock in ms; injectable for tests. Defaults to `Date.now`. */
  now?: () => number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

type SenderBuckets = Record<RateLimitBucket, Bucket>;

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw messagingError("invalid_option", `${name} must be a positive integer`, {
      details: { [name]: value },
    });
  }
  return value;
}

export class RateLimiter {
  readonly limits: Readonly<Record<RateLimitBucket, number>>;
  readonly windowMs: number;
  readonly maxSenders: number;
  readonly #now: () => number;
  /** Insertion order is recency: a sender is re-inserted on every take. */
  readonly #senders = new Map<string, SenderBuckets>();

  constructor(options: RateLimitOptions = {}) {
    this.limits = {
      messages: positiveInteger("messages", options.messages ?? RATE_LIMIT_MESSAGES_PER_MINUTE),
      broadcasts: positiveInteger(
        "broadcasts",
        options.broadcasts ?? RATE_LIMIT_BROADCASTS_PER_MINUTE,
      ),
      collectiveQueries: positiveInteger(
        "collectiveQueries",
        options.collectiveQueries ?? RATE_LIMIT_COLLECTIVE_QUERIES_PER_MINUTE,
      ),
    };
    this.windowMs = positiveInteger("windowMs", options.windowMs ?? RATE_LIMIT_WINDOW_MS);
    this.maxSenders = positiveInteger("maxSenders", options.maxSenders ?? RATE_LIMIT_MAX_SENDERS);
    this.#now = options.now ?? Date.now;
  }

  /** The buckets a message takes a token from. */
  static bucketsFor(message: { type: string; to: unknown }): RateLimitBucket[] {
    const buckets: RateLimitBucket[] = ["messages"];
    if (message.to === BROADCAST) buckets.push("broadcasts");
    if (message.type === "ocp.collective.query") buckets.push("collectiveQueries");
    return buckets;
  }

  /** Number of senders currently tracked. */
  get senderCount(): number {
    return this.#senders.size;
  }

  /** Takes the tokens a message from `sender` needs, or refuses it with `rate_limited`. */
  take(sender: string, message: { type: string; to: unknown }): Result<void, "rate_limited"> {
    const now = this.#now();
    const buckets = this.#bucketsOf(sender, now);
    const needed = RateLimiter.bucketsFor(message);
    for (const name of needed) {
      const bucket = buckets[name];
      this.#refill(name, bucket, now);
      if (bucket.tokens < 1) {
        const rate = this.limits[name] / this.windowMs;
        const retryAfterMs = Math.ceil((1 - bucket.tokens) / rate);
        return fail(
          "rate_limited",
          `${sender} exceeded ${this.limits[name]} ${name} per ${this.windowMs} ms`,
          {
            details: {
              sender,
              bucket: name,
              limit: this.limits[name],
              windowMs: this.windowMs,
              retryAfterMs,
            },
          },
        );
      }
    }
    for (const name of needed) buckets[name].tokens -= 1;
    return { ok: true, value: undefined };
  }

  #refill(name: RateLimitBucket, bucket: Bucket, now: number): void {
    const elapsed = Math.max(0, now - bucket.updatedAt);
    const limit = this.limits[name];
    bucket.tokens = Math.min(limit, bucket.tokens + (elapsed * limit) / this.windowMs);
    bucket.updatedAt = Math.max(bucket.updatedAt, now);
  }

  #bucketsOf(sender: string, now: number): SenderBuckets {
    let buckets = this.#senders.get(sender);
    if (buckets === undefined) {
      const full = (name: RateLimitBucket): Bucket => ({
        tokens: this.limits[name],
        updatedAt: now,
      });
      buckets = {
        messages: full("messages"),
        broadcasts: full("broadcasts"),
        collectiveQueries: full("collectiveQueries"),
      };
      while (this.#senders.size >= this.maxSenders) {
        const oldest = this.#senders.keys().next().value as string;
        this.#senders.delete(oldest);
      }
    } else {
      this.#senders.delete(sender);
    }
    this.#senders.set(sender, buckets);
    return buckets;
  }
}
