import { describe, expect, it } from "vitest";
import { RateLimiter } from "../src/index.js";
import {
  RATE_LIMIT_BROADCASTS_PER_MINUTE,
  RATE_LIMIT_COLLECTIVE_QUERIES_PER_MINUTE,
  RATE_LIMIT_MESSAGES_PER_MINUTE,
} from "../src/internal.js";
import { FakeClock } from "./support/pipeline.js";

const direct = { type: "ocp.sync.accept", to: "a2a://bob" };
const broadcast = { type: "ocp.awareness.beacon", to: "broadcast" };
const query = { type: "ocp.collective.query", to: "a2a://bob" };

function admitted(
  limiter: RateLimiter,
  sender: string,
  message: { type: string; to: unknown },
  times: number,
): number {
  let count = 0;
  for (let i = 0; i < times; i++) if (limiter.take(sender, message).ok) count++;
  return count;
}

describe("rate limits (§12.3)", () => {
  it(`defaults: ${RATE_LIMIT_MESSAGES_PER_MINUTE} messages, ${RATE_LIMIT_BROADCASTS_PER_MINUTE} broadcasts, ${RATE_LIMIT_COLLECTIVE_QUERIES_PER_MINUTE} collective queries per minute per sender`, () => {
    const clock = new FakeClock();
    expect(admitted(new RateLimiter({ now: clock.now }), "a", direct, 150)).toBe(100);
    expect(admitted(new RateLimiter({ now: clock.now }), "a", broadcast, 50)).toBe(10);
    expect(admitted(new RateLimiter({ now: clock.now }), "a", query, 50)).toBe(5);
  });

  it("refuses with a typed rate_limited naming the bucket and the wait, never silently", () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ now: clock.now });
    admitted(limiter, "a", query, 5);
    const refused = limiter.take("a", query);
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.code).toBe("rate_limited");
      expect(refused.error.details).toMatchObject({
        sender: "a",
        bucket: "collectiveQueries",
        limit: 5,
        retryAfterMs: 12_000,
      });
    }
  });

  it("refills continuously: one token per window/limit", () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ now: clock.now });
    admitted(limiter, "a", broadcast, 10);
    expect(limiter.take("a", broadcast).ok).toBe(false);
    clock.advance(5_999);
    expect(limiter.take("a", broadcast).ok).toBe(false);
    clock.advance(1);
    expect(limiter.take("a", broadcast).ok).toBe(true);
    clock.advance(600_000);
    expect(admitted(limiter, "a", broadcast, 20)).toBe(10);
  });

  it("is all or nothing: a refused broadcast takes no message token", () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ now: clock.now });
    admitted(limiter, "a", broadcast, 10);
    expect(admitted(limiter, "a", broadcast, 50)).toBe(0);
    expect(admitted(limiter, "a", direct, 200)).toBe(90);
  });

  it("keeps senders apart", () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ now: clock.now });
    expect(admitted(limiter, "a", query, 10)).toBe(5);
    expect(admitted(limiter, "b", query, 10)).toBe(5);
  });

  it("is configurable, and refuses 0, negatives, fractions and Infinity", () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({
      messages: 3,
      broadcasts: 1,
      collectiveQueries: 2,
      windowMs: 1_000,
      now: clock.now,
    });
    expect(admitted(limiter, "a", direct, 10)).toBe(3);
    clock.advance(1_000);
    expect(admitted(limiter, "a", broadcast, 10)).toBe(1);
    for (const bad of [
      { messages: 0 },
      { broadcasts: -1 },
      { windowMs: 0.5 },
      { maxSenders: Number.POSITIVE_INFINITY },
    ]) {
      expect(() => new RateLimiter(bad)).toThrow(/positive integer/);
    }
  });

  it("bounds memory: keeps at most maxSenders, dropping the least recently seen", () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ maxSenders: 2, messages: 1, now: clock.now });
    expect(limiter.take("a", direct).ok).toBe(true);
    expect(limiter.take("b", direct).ok).toBe(true);
    expect(limiter.take("a", direct).ok).toBe(false); // a is now the most recent
    expect(limiter.take("c", direct).ok).toBe(true); // evicts b
    expect(limiter.senderCount).toBe(2);
    expect(limiter.take("a", direct).ok).toBe(false); // a kept its empty bucket
  });
});
