import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, pickLimits, resolveLimits } from "../src/limits.js";

describe("limits", () => {
  it("every default is a finite positive integer", () => {
    for (const value of Object.values(DEFAULT_LIMITS)) {
      expect(Number.isSafeInteger(value) && value > 0).toBe(true);
    }
  });

  it("an override replaces its default only", () => {
    const limits = resolveLimits({ maxPayloadBytes: 4096 });
    expect(limits).toEqual({ ...DEFAULT_LIMITS, maxPayloadBytes: 4096 });
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])(
    "a limit of %s is rejected (0 never means unlimited)",
    (value) => {
      expect(() => resolveLimits({ maxConnections: value })).toThrow(
        expect.objectContaining({
          code: "invalid_limit",
          details: { limit: "maxConnections", value },
        }),
      );
    },
  );

  it("rejects contradictory water marks and reconnect delays", () => {
    expect(() => resolveLimits({ lowWaterBytes: 10, highWaterBytes: 10 })).toThrow(/lowWaterBytes/);
    expect(() =>
      resolveLimits({ highWaterBytes: 10, maxOutboundBufferBytes: 5, lowWaterBytes: 1 }),
    ).toThrow(/highWaterBytes/);
    expect(() => resolveLimits({ reconnectBaseMs: 10, reconnectMaxMs: 5 })).toThrow(
      /reconnectBaseMs/,
    );
  });

  it("picks only limit names out of a larger options object", () => {
    expect(pickLimits({ url: "ws://x", maxBatchRecords: 7, announce: () => "" })).toEqual({
      maxBatchRecords: 7,
    });
  });
});
