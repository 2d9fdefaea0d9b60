import { describe, expect, it } from "vitest";
import { backoffDelay, nominalDelay } from "../src/backoff.js";

const options = { baseMs: 100, maxMs: 1_000 };

describe("backoff", () => {
  it("doubles the nominal delay per attempt up to maxMs", () => {
    expect([0, 1, 2, 3, 4, 5, 60].map((n) => nominalDelay(n, options))).toEqual([
      100, 200, 400, 800, 1000, 1000, 1000,
    ]);
  });

  it("jitters within [nominal/2, nominal]", () => {
    expect(backoffDelay(2, { ...options, random: () => 0 })).toBe(200);
    expect(backoffDelay(2, { ...options, random: () => 0.999999 })).toBe(400);
    for (let i = 0; i < 200; i++) {
      const delay = backoffDelay(3, options);
      expect(delay).toBeGreaterThanOrEqual(400);
      expect(delay).toBeLessThanOrEqual(800);
    }
  });

  it("spreads clients that lost the hub at the same moment", () => {
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelay(4, options)));
    expect(delays.size).toBeGreaterThan(1);
  });
});
