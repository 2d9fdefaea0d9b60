import { describe, expect, it } from "vitest";
import { Correlator } from "../src/index.js";
import { stdioError } from "../src/internal.js";
import { rejection } from "./helpers.js";

const LONG = 60_000;

function plain() {
  const sent: (string | undefined)[] = [];
  const correlator = new Correlator<string>({ correlated: false, maxInFlight: 8, peer: "p" });
  const ask = (options: { timeoutMs?: number; signal?: AbortSignal } = {}) =>
    correlator.request((id) => sent.push(id), {
      timeoutMs: options.timeoutMs ?? LONG,
      signal: options.signal,
    });
  return { correlator, sent, ask };
}

function correlated(maxInFlight = 2) {
  const sent: (string | undefined)[] = [];
  const correlator = new Correlator<string>({ correlated: true, maxInFlight, peer: "p" });
  const ask = () => correlator.request((id) => sent.push(id), { timeoutMs: LONG });
  return { correlator, sent, ask };
}

describe("Correlator, plain peer", () => {
  it("sends one request at a time, without id, in call order", async () => {
    const { correlator, sent, ask } = plain();
    const first = ask();
    const second = ask();
    expect(sent).toEqual([undefined]);
    expect(correlator.size).toEqual({ inFlight: 1, queued: 1 });
    expect(correlator.resolve(undefined, "one")).toBe(true);
    expect(sent).toEqual([undefined, undefined]);
    correlator.resolve(undefined, "two");
    expect([await first, await second]).toEqual(["one", "two"]);
  });

  it("cancels a waiting query on abort: it is never sent", async () => {
    const { sent, ask, correlator } = plain();
    const first = ask();
    const controller = new AbortController();
    const second = ask({ signal: controller.signal });
    controller.abort(new Error("changed my mind"));
    const error = await rejection(second);
    expect(error.code).toBe("aborted");
    expect((error.cause as Error).message).toBe("changed my mind");
    correlator.resolve(undefined, "one");
    expect(await first).toBe("one");
    expect(sent).toHaveLength(1);
  });

  it("keeps the slot of an aborted request on the wire until its late reply, which is dropped", async () => {
    const { correlator, sent, ask } = plain();
    const controller = new AbortController();
    const first = ask({ signal: controller.signal });
    const second = ask();
    controller.abort();
    expect((await rejection(first)).code).toBe("aborted");
    expect(sent).toHaveLength(1);
    expect(correlator.resolve(undefined, "late answer to the first")).toBe(false);
    expect(sent).toHaveLength(2);
    correlator.resolve(undefined, "two");
    expect(await second).toBe("two");
  });

  it("fails a request with timeout when no reply comes in time", async () => {
    const { ask } = plain();
    const error = await rejection(ask({ timeoutMs: 10 }));
    expect(error.code).toBe("timeout");
    expect(error.details.timeoutMs).toBe(10);
  });

  it("rejects at once a request whose signal is already aborted", async () => {
    const { ask, sent } = plain();
    expect((await rejection(ask({ signal: AbortSignal.abort() }))).code).toBe("aborted");
    expect(sent).toEqual([]);
  });
});

describe("Correlator, correlated peer", () => {
  it("pipelines up to maxInFlight requests with ids and matches replies by id", async () => {
    const { correlator, sent, ask } = correlated(2);
    const [a, b, c] = [ask(), ask(), ask()];
    expect(sent).toEqual(["1", "2"]);
    correlator.resolve("2", "B");
    expect(sent).toEqual(["1", "2", "3"]);
    correlator.resolve("3", "C");
    correlator.resolve("1", "A");
    expect([await a, await b, await c]).toEqual(["A", "B", "C"]);
  });

  it("drops a reply with an unknown or missing id", async () => {
    const { correlator, ask } = correlated();
    const pending = ask();
    expect(correlator.resolve("999", "stray")).toBe(false);
    expect(correlator.resolve(undefined, "stray")).toBe(false);
    correlator.resolve("1", "mine");
    expect(await pending).toBe("mine");
  });

  it("fails every request on the wire for a reply it cannot attribute", async () => {
    const { correlator, ask } = correlated();
    const [a, b] = [ask(), ask()];
    correlator.rejectUnattributed(stdioError("malformed_reply", "garbage"));
    expect((await rejection(a)).code).toBe("malformed_reply");
    expect((await rejection(b)).code).toBe("malformed_reply");
  });
});

describe("Correlator, closing", () => {
  it("fails every pending request with the closing error, and later ones with closed", async () => {
    const { correlator, ask } = plain();
    const [a, b] = [ask(), ask()];
    correlator.close(stdioError("provider_crashed", "gone"));
    expect((await rejection(a)).code).toBe("provider_crashed");
    expect((await rejection(b)).code).toBe("provider_crashed");
    const later = await rejection(ask());
    expect(later.code).toBe("closed");
    expect(later.details.reason).toBe("provider_crashed");
  });

  it("fails a request whose write throws, and goes on with the next", async () => {
    const correlator = new Correlator<string>({ correlated: false, maxInFlight: 1, peer: "p" });
    const broken = correlator.request(
      () => {
        throw new Error("EPIPE");
      },
      { timeoutMs: LONG },
    );
    const next = correlator.request(() => {}, { timeoutMs: LONG });
    expect((await rejection(broken)).code).toBe("closed");
    correlator.resolve(undefined, "ok");
    expect(await next).toBe("ok");
  });
});
