import { describe, expect, it } from "vitest";
import { ReplayWindow } from "../src/index.js";
import { REPLAY_WINDOW_MAX_ENTRIES } from "../src/internal.js";

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

  it("without filters (filterBytes 0), a full window fails closed with a floor", () => {
    const window = new ReplayWindow({ maxEntries: 3, filterBytes: 0 });
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

  it("with filters, an evicted id's replay is refused, a fresh message with an earlier deadline is not", () => {
    const window = new ReplayWindow({ maxEntries: 3 });
    for (const [id, deadline] of [
      ["a", 100],
      ["b", 200],
      ["c", 300],
      ["d", 400], // evicts "a" into the filter of its hour
    ] as const)
      expect(window.admit(id, deadline, 0).ok).toBe(true);
    const replayOfA = window.admit("a", 100, 0);
    expect(!replayOfA.ok && replayOfA.error.code).toBe("replay_window_saturated");
    expect(window.admit("e", 50, 0).ok).toBe(true);
    expect(window.filterBytes).toBeGreaterThan(0);
  });

  it("long-lived traffic past maxEntries: every replay refused, short-lived fresh messages still accepted", () => {
    // 20,000 messages with 24 h deadlines through a window of 1,000 exact ids (a hub at ~1
    // long-lived message a second for 5.5 hours), then fresh 30-second messages.
    const hour = 3_600_000;
    const window = new ReplayWindow({ maxEntries: 1_000 });
    const now = 10 * hour;
    for (let i = 0; i < 20_000; i++) {
      expect(window.admit(`long-${i}`, now + 24 * hour + i * 1_000, now).ok).toBe(true);
    }
    for (let i = 0; i < 20_000; i += 7) {
      const replay = window.admit(`long-${i}`, now + 24 * hour + i * 1_000, now);
      expect(replay.ok).toBe(false);
    }
    let refused = 0;
    for (let i = 0; i < 2_000; i++)
      if (!window.admit(`short-${i}`, now + 30_000, now).ok) refused++;
    expect(refused).toBe(0); // no evicted deadline in their hour: nothing to confuse them with
    // Fresh long-lived ids in the loaded hours: false positives stay near the designed 1%.
    let falsePositives = 0;
    for (let i = 0; i < 5_000; i++)
      if (!window.check(`fresh-${i}`, now + 24 * hour + i * 1_000, now).ok) falsePositives++;
    expect(falsePositives / 5_000).toBeLessThan(0.02);
    // Memory: one 512 KiB filter per hour of evicted deadlines, nothing more.
    expect(window.filterBytes).toBeLessThanOrEqual(8 * 512 * 1024);
    // Once their hours have passed, the filters are gone.
    window.check("probe", now + 36 * hour, now + 36 * hour);
    expect(window.filterBytes).toBe(0);
  }, 30_000);

  it("past a filter's capacity or its byte budget, the window fails closed for those deadlines", () => {
    // 64-byte filters (512 bits, 51 ids each), room for two.
    const window = new ReplayWindow({
      maxEntries: 1,
      bytesPerFilter: 64,
      filterBytes: 128,
      filterSpanMs: 1_000,
    });
    for (let i = 0; i < 60; i++) window.admit(`a-${i}`, 10_500, 0); // fills, then overflows hour 10
    const inOverflowed = window.admit("fresh-a", 10_600, 0);
    expect(!inOverflowed.ok && inOverflowed.error.code).toBe("replay_window_saturated");
    window.admit("b-0", 20_500, 0);
    window.admit("b-1", 20_500, 0); // evicts b-0 into a second filter: the budget is spent
    window.admit("c-0", 30_500, 0);
    window.admit("c-1", 30_500, 0); // no filter left for c-0: the floor rises to 30,500
    const underFloor = window.admit("fresh-c", 30_400, 0);
    expect(!underFloor.ok && underFloor.error.code).toBe("replay_window_saturated");
    expect(window.admit("later", 40_000, 0).ok).toBe(true);
    expect(window.filterBytes).toBe(128);
  });

  it("refuses filter options it cannot honour with invalid_option", () => {
    expect(() => new ReplayWindow({ bytesPerFilter: 100 })).toThrow(/power of two/);
    expect(() => new ReplayWindow({ filterBytes: -1 })).toThrow(/non-negative/);
    expect(() => new ReplayWindow({ filterSpanMs: 0 })).toThrow(/positive/);
  });

  it("forget: an id whose message was not kept may be admitted again, then is remembered as before", () => {
    const window = new ReplayWindow({ maxEntries: 2 });
    expect(window.admit("a", 1_000, 0).ok).toBe(true);
    window.forget("a");
    window.forget("never-seen"); // a no-op
    expect(window.size).toBe(0);
    expect(window.admit("a", 1_000, 0).ok).toBe(true);
    expect(window.admit("a", 1_000, 10).ok).toBe(false);
    // The forgotten copy's heap entry neither evicts nor expires the id recorded again.
    expect(window.admit("b", 2_000, 0).ok).toBe(true);
    expect(window.admit("c", 3_000, 0).ok).toBe(true); // full: evicts "a" (earliest live deadline)
    expect(window.size).toBe(2);
    expect(window.check("b", 2_000, 500).ok).toBe(false);
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
