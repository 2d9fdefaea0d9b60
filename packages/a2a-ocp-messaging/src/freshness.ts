import { fail, ok, type Result } from "./errors.js";
import type { WireMessage } from "./messages.js";

/** What the freshness check needs: the clock, the default TTL and the skew allowed. */
export interface FreshnessPolicy {
  readonly now: number;
  readonly defaultTtlSeconds: number;
  readonly maxClockSkewMs: number;
}

/**
 * Step 5 of the inbound pipeline: a message dated more than the allowed
 * clock skew ahead is `message_from_future`; one older than its TTL (or the
 * default) plus the skew is `message_expired`. On success, the deadline (ms
 * since the epoch) until which its id must be remembered against replays.
 */
export function checkFreshness(
  wire: Pick<WireMessage, "id" | "timestamp" | "ttl">,
  policy: FreshnessPolicy,
): Result<number, "message_from_future" | "message_expired"> {
  const sent = Date.parse(wire.timestamp);
  const ttlMs = (wire.ttl ?? policy.defaultTtlSeconds) * 1000;
  if (sent > policy.now + policy.maxClockSkewMs) {
    return fail("message_from_future", `message ${wire.id} is dated ahead of our clock`, {
      details: { timestamp: wire.timestamp, maxClockSkewMs: policy.maxClockSkewMs },
    });
  }
  const deadline = sent + ttlMs + policy.maxClockSkewMs;
  if (policy.now > deadline) {
    return fail("message_expired", `message ${wire.id} expired`, {
      details: { timestamp: wire.timestamp, ttlMs },
    });
  }
  return ok(deadline);
}
