import { getEventListeners } from "node:events";
import type { ContextProvider, QueryOptions } from "@ocp/types";
import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { connectHttpProvider, createHttpProviderServer, type HttpProvider } from "../src/index.js";
import {
  ACK,
  type BareServer,
  bareServer,
  json,
  memoryProvider,
  query,
  rejection,
} from "./helpers.js";

const closing: { close(): Promise<void> }[] = [];
const providers: HttpProvider[] = [];
afterEach(async () => {
  await Promise.all(providers.splice(0).map((provider) => provider.shutdown()));
  await Promise.all(closing.splice(0).map((server) => server.close()));
});

const FRAMES = { type: "frames", result: { frames: [], truncated: false } };

/** Acks the handshake, answers goal "ok" at once and leaves every other query hanging. */
async function hanging(): Promise<BareServer> {
  const server = await bareServer((body, _request, response) => {
    const envelope = JSON.parse(body);
    if (envelope.type === "handshake") json(response, 200, ACK);
    else if (envelope.type === "shutdown") json(response, 200, { type: "shutdown" });
    else if (envelope.query.goal === "ok") json(response, 200, FRAMES);
  });
  closing.push(server);
  return server;
}

async function connect(url: string, options: { requestTimeoutMs?: number; connections?: number }) {
  const provider = await connectHttpProvider({ id: "p", url, ...options });
  providers.push(provider);
  return provider;
}

/** Whether `promise` is still pending after the event loop has turned a few times. */
async function pending(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  await new Promise((resolve) => setTimeout(resolve, 10));
  return !settled;
}

describe("connectHttpProvider deadlines", () => {
  it("bounds a query by its own timeoutMs over the client's requestTimeoutMs", async () => {
    const server = await hanging();
    const provider = await connect(server.url, { requestTimeoutMs: 60_000 });
    const error = await rejection(provider.query(query("hang"), { timeoutMs: 100 }));
    expect(error.code).toBe("timeout");
    expect(error.details.timeoutMs).toBe(100);
  });

  it("fails a shorter deadline on time while a longer one is in flight, then the longer one", async () => {
    const server = await hanging();
    const provider = await connect(server.url, { requestTimeoutMs: 60_000 });
    const long = rejection(provider.query(query("hang"), { timeoutMs: 1_500 }));
    const short = await rejection(provider.query(query("hang"), { timeoutMs: 50 }));
    expect(short.details.timeoutMs).toBe(50);
    expect(await pending(long)).toBe(true);
    expect(await long).toMatchObject({ code: "timeout", details: { timeoutMs: 1_500 } });
  });

  it("times out queries still queued behind a busy connection, and the pool serves on", async () => {
    const server = await hanging();
    const provider = await connect(server.url, { connections: 1 });
    const errors = await Promise.all(
      [1, 2, 3].map(() => rejection(provider.query(query("hang"), { timeoutMs: 100 }))),
    );
    expect(errors.map((error) => error.code)).toEqual(["timeout", "timeout", "timeout"]);
    expect(await provider.query(query("ok"))).toEqual({ frames: [], truncated: false });
  });

  it("refuses a timeoutMs that is not a positive integer before sending anything", async () => {
    const server = await hanging();
    const provider = await connect(server.url, {});
    const sent = server.bodies.length;
    for (const timeoutMs of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "100" as never]) {
      await expect(provider.query(query("ok"), { timeoutMs })).rejects.toThrow(RangeError);
    }
    expect(server.bodies.length).toBe(sent);
  });

  it("leaves no listener on a long-lived signal once each query settles", async () => {
    const server = await hanging();
    const provider = await connect(server.url, {});
    const controller = new AbortController();
    for (let i = 0; i < 20; i += 1)
      await provider.query(query("ok"), { signal: controller.signal });
    await rejection(provider.query(query("hang"), { signal: controller.signal, timeoutMs: 50 }));
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    controller.abort(); // nothing left to abort
    expect(await provider.query(query("ok"))).toEqual({ frames: [], truncated: false });
  });

  it("an abort settles the query once: the deadline passing later changes nothing", async () => {
    const server = await hanging();
    const provider = await connect(server.url, {});
    const controller = new AbortController();
    const query1 = provider.query(query("hang"), { signal: controller.signal, timeoutMs: 60 });
    controller.abort(new Error("stop"));
    expect((await rejection(query1)).code).toBe("aborted");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await provider.query(query("ok"), { timeoutMs: 1_000 })).toEqual({
      frames: [],
      truncated: false,
    });
  });
});

describe("connectHttpProvider exchanges in flight together", () => {
  it("gives each of 64 concurrent queries its own answer over 4 connections", async () => {
    const served = createHttpProviderServer(memoryProvider().provider);
    closing.push(served);
    const provider = await connect(await served.listen(), { connections: 4 });
    const goals = Array.from({ length: 64 }, (_, i) => `goal-${i}`);
    const answers = await Promise.all(
      goals.map((goal) => provider.query(query(goal), { timeoutMs: 4_000 })),
    );
    expect(answers.map((answer) => answer.frames[0]?.id)).toEqual(
      goals.map((goal) => `mem:${goal}`),
    );
  });
});

describe("createHttpProviderServer signal", () => {
  it("hands a signal that a copy of the options carries on", async () => {
    const { provider: base } = memoryProvider();
    let copied: unknown;
    const provider: ContextProvider = {
      ...base,
      async query(q, options: QueryOptions = {}) {
        copied = { ...options }.signal;
        return base.query(q);
      },
    };
    const served = createHttpProviderServer(provider);
    closing.push(served);
    const remote = await connect(await served.listen(), {});
    await remote.query(query("x"));
    expect(copied).toBeInstanceOf(AbortSignal);
    expect((copied as AbortSignal).aborted).toBe(false);
  });

  it("hands an aborted signal to a provider that first reads it after the client went away", async () => {
    let seen: boolean | undefined;
    let reached!: () => void;
    const inQuery = new Promise<void>((resolve) => {
      reached = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { provider: base } = memoryProvider();
    const provider: ContextProvider = {
      ...base,
      async query(q, options: QueryOptions = {}) {
        reached();
        await released;
        seen = options.signal?.aborted;
        return base.query(q);
      },
    };
    const served = createHttpProviderServer(provider);
    closing.push(served);
    const url = await served.listen();
    const controller = new AbortController();
    const call = request(url, {
      method: "POST",
      body: JSON.stringify({ type: "query", query: { goal: "x", max_frames: 1, max_tokens: 10 } }),
      headers: { "content-type": "application/json" },
      signal: controller.signal,
    }).catch((error: Error) => error);
    await inQuery;
    controller.abort();
    expect(await call).toBeInstanceOf(Error);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the server sees the socket close
    release();
    for (let i = 0; i < 100 && seen === undefined; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(seen).toBe(true);
  });
});
