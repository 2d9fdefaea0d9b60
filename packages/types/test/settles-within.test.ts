import { describe, expect, it } from "vitest";
import { settlesWithin } from "../src/internal.js";

describe("settlesWithin", () => {
  it("is true for work that fulfils or rejects in time, false for work that does not, and never rejects", async () => {
    expect(await settlesWithin(Promise.resolve(1), 50)).toBe(true);
    expect(await settlesWithin(Promise.reject(new Error("boom")), 50)).toBe(true);
    const started = performance.now();
    expect(await settlesWithin(new Promise(() => undefined), 30)).toBe(false);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });
});
