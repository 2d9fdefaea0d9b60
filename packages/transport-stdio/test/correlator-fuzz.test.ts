import { describe, expect, it } from "vitest";
import { Correlator } from "../src/index.js";

/** A small seeded PRNG (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe("Correlator under random interleavings", () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`never hands a request another request's reply, plain peer, random aborts (seed ${seed})`, async () => {
      const next = random(seed);
      const correlator = new Correlator<number>({ correlated: false, maxInFlight: 1, peer: "p" });
      const wire: number[] = []; // what the simulated peer received, in order
      const outcomes: Promise<void>[] = [];
      for (let n = 0; n < 200; n += 1) {
        const controller = new AbortController();
        const request = correlator.request(() => wire.push(n), {
          timeoutMs: 60_000,
          signal: controller.signal,
        });
        outcomes.push(
          request.then(
            (value) => expect(value).toBe(n),
            (error: { code: string }) => expect(error.code).toBe("aborted"),
          ),
        );
        if (next() < 0.2) controller.abort();
        // The peer answers, in order, the requests it received, each with its own number.
        while (wire.length > 0 && next() < 0.6) correlator.resolve(undefined, wire.shift()!);
        await flush();
      }
      while (correlator.size.inFlight > 0) {
        correlator.resolve(undefined, wire.shift()!);
        await flush();
      }
      await Promise.all(outcomes);
      expect(correlator.size).toEqual({ inFlight: 0, queued: 0 });
    });

    it(`matches every reply to its request by id, correlated peer, random order (seed ${seed})`, async () => {
      const next = random(seed);
      const correlator = new Correlator<string>({ correlated: true, maxInFlight: 8, peer: "p" });
      const onWire: string[] = [];
      const outcomes: Promise<void>[] = [];
      for (let n = 0; n < 200; n += 1) {
        let sentId: string | undefined;
        const request = correlator.request(
          (id) => {
            sentId = id;
            onWire.push(id!);
          },
          { timeoutMs: 60_000 },
        );
        outcomes.push(request.then((value) => expect(value).toBe(`reply to ${sentId}`)));
        while (onWire.length > 0 && next() < 0.5) {
          const [id] = onWire.splice(Math.floor(next() * onWire.length), 1);
          correlator.resolve(id, `reply to ${id}`);
        }
        expect(correlator.size.inFlight).toBeLessThanOrEqual(8);
      }
      while (onWire.length > 0) {
        const [id] = onWire.splice(Math.floor(next() * onWire.length), 1);
        correlator.resolve(id, `reply to ${id}`);
      }
      await Promise.all(outcomes);
    });
  }
});
