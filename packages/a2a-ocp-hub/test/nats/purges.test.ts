import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ConfirmedFloors } from "../../src/nats/purges.js";

describe("ConfirmedFloors: confirmed deliveries are skipped at once and purged in batches", () => {
  let purged: Array<[string, number]>;
  let failNext: boolean;
  let errors: unknown[];
  const floors = (every = 100, delayMs = 1000) =>
    new ConfirmedFloors({
      purge: async (stream, upTo) => {
        if (failNext) {
          failNext = false;
          throw new Error("purge refused");
        }
        purged.push([stream, upTo]);
      },
      onError: (error) => errors.push(error),
      every,
      delayMs,
    });

  beforeEach(() => {
    vi.useFakeTimers();
    purged = [];
    failNext = false;
    errors = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("raises the floor at once and purges once, to the highest floor, after the delay", async () => {
    const f = floors();
    f.confirm("S", 5);
    f.confirm("S", 9);
    f.confirm("S", 7); // lower: ignored
    expect(f.floor("S")).toBe(9);
    expect(f.floor("other")).toBe(0);
    await vi.advanceTimersByTimeAsync(999);
    expect(purged).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(purged).toEqual([["S", 9]]);
    // Purged: the stream itself now starts after the floor, the entry is gone.
    expect(f.pending).toBe(0);
    expect(f.floor("S")).toBe(0);
  });

  it("purges at once when the floor moved `every` sequences past the batch's first", async () => {
    const f = floors(100);
    f.confirm("S", 10);
    f.confirm("S", 109);
    await vi.advanceTimersByTimeAsync(0);
    expect(purged).toEqual([]);
    f.confirm("S", 110);
    await vi.advanceTimersByTimeAsync(0);
    expect(purged).toEqual([["S", 110]]);
    f.confirm("S", 150);
    f.confirm("S", 249);
    await vi.advanceTimersByTimeAsync(0);
    expect(purged).toEqual([["S", 110]]);
    f.confirm("S", 250);
    await vi.advanceTimersByTimeAsync(0);
    expect(purged).toEqual([
      ["S", 110],
      ["S", 250],
    ]);
    await vi.advanceTimersByTimeAsync(5000);
    expect(purged).toHaveLength(2);
  });

  it("ignores what is not a positive sequence number", async () => {
    const f = floors();
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60])
      f.confirm("S", bad);
    expect(f.floor("S")).toBe(0);
    expect(f.pending).toBe(0);
    await f.flush();
    expect(purged).toEqual([]);
  });

  it("keeps the floor when a purge fails and purges again on flush", async () => {
    const f = floors();
    f.confirm("S", 4);
    failNext = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(errors).toHaveLength(1);
    expect(purged).toEqual([]);
    expect(f.floor("S")).toBe(4);
    await f.flush();
    expect(purged).toEqual([["S", 4]]);
    expect(f.pending).toBe(0);
  });

  it("flush purges every pending stream and waits for the purges", async () => {
    const f = floors();
    f.confirm("A", 3);
    f.confirm("B", 8);
    await f.flush();
    expect(purged.sort()).toEqual([
      ["A", 3],
      ["B", 8],
    ]);
    // Nothing left: the timers were cleared, nothing runs later.
    await vi.advanceTimersByTimeAsync(5000);
    expect(purged).toHaveLength(2);
  });

  it("a confirmation during a purge keeps its own floor and purges later", async () => {
    let release: () => void = () => undefined;
    const calls: number[] = [];
    const f = new ConfirmedFloors({
      purge: (_stream, upTo) => {
        calls.push(upTo);
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      },
      every: 10,
      delayMs: 1000,
    });
    f.confirm("S", 1);
    f.confirm("S", 11);
    expect(calls).toEqual([11]);
    f.confirm("S", 13);
    release();
    await vi.advanceTimersByTimeAsync(0);
    // The purge of 11 ended, but 13 is confirmed: the floor stays until it is purged.
    expect(f.floor("S")).toBe(13);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toEqual([11, 13]);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(f.pending).toBe(0);
  });
});
