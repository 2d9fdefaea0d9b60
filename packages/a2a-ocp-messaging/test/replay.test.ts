import { describe, expect, it } from "vitest";
import { REPLAY_WINDOW_MAX_ENTRIES, ReplayWindow } from "../src/index.js";

describe("replay window", () => {
  it("refuses a remembered id and forgets it after its deadline", () => {
    const window = new ReplayWindow();
    expect(window.admit("a", 1_000, 0).ok).toBe(true);
    const again = window.admit("a", 1_000, 500);
    expect(!again.ok && again.error.code).toBe("replay_detected");
    expect(window.admit("a", 1_000, 1_000).ok).toBe(false);
    expect(window.admit("a", 3_000, 1_001).ok).toBe(true);
  });

  it("check does not record; record does", () => {
    const window = new ReplayWindow();
    expect(window.check("a", 10, 0).ok).toBe(true);
    expect(window.check("a", 10, 0).ok).toBe(true);
    window.record("a", 10, 0);
    expect(window.check("a", 10, 0).ok).toBe(false);
  });

  it(`never holds more than maxEntries ids (default REPLAY_WINDOW_MAX_ENTRIES = ${REPLAY_WINDOW_MAX_ENTRIES})`, () => {
    expect(new ReplayWindow().maxEntries).toBe(REPLAY_WINDOW_MAX_ENTRIES);
    const window = new ReplayWindow({ maxEntries: 100 });
    for (let i = 0; i < 1_000; i++) window.admit(`id-${i}`, 1_000_000 + i, 0);
    expect(window.size).toBe(100);
  });

  it("when full, fails closed: an evicted id's replay is refused as replay_window_saturated, never accepted", () => {
    const window = new ReplayWindow({ maxEntries: 3 });
    for (const [id, deadline] of [
      ["a", 100],
      ["b", 200],
      ["c", 300],
    ] as const) {
      expect(window.admit(id, deadline, 0).ok).toBe(true);
    }
    expect(window.admit("d", 400, 0).ok).toBe(true); // evicts "a" (earliest deadline, 100)
    const replayOfA = window.admit("a", 100, 0);
    expect(!replayOfA.ok && replayOfA.error.code).toBe("replay_window_saturated");
    const lateNewcomer = window.admit("e", 50, 0);
    expect(!lateNewcomer.ok && lateNewcomer.error.code).toBe("replay_window_saturated");
    expect(window.admit("f", 500, 0).ok).toBe(true);
    expect(window.admit("b", 200, 0).ok).toBe(false);
  });

  it("expires ids in deadline order, whatever the insertion order", () => {
    const window = new ReplayWindow();
    for (const [id, deadline] of [
      ["x", 300],
      ["y", 100],
      ["z", 200],
    ] as const)
      window.record(id, deadline, 0);
    expect(window.size).toBe(3);
    window.check("probe", 1_000, 150);
    expect(window.size).toBe(2);
    window.check("probe", 1_000, 250);
    expect(window.size).toBe(1);
    expect(window.check("x", 300, 250).ok).toBe(false);
  });

  it("refuses a non-positive maxEntries with invalid_option", () => {
    expect(() => new ReplayWindow({ maxEntries: 0 })).toThrow(/positive integer/);
  });
});
