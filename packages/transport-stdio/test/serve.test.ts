import { spawn } from "node:child_process";
import { PassThrough } from "node:stream";
import { type ContextProvider, decodeLine, type Envelope, wireError } from "@ocp/types";
import { describe, expect, it } from "vitest";
import { serveStdio } from "../src/index.js";
import { LINES_PER_WRITE } from "../src/limits.js";
import { fixture } from "./helpers.js";

function inMemoryProvider(options: { correlation?: boolean } = {}) {
  const calls = { shutdown: 0 };
  const provider: ContextProvider = {
    id: "mem",
    info: {
      name: "mem",
      version: "1.0.0",
      data_flow: { reads: true, writes: false, egress: false },
    },
    capabilities: {
      query: { kinds: ["doc"], filters: [] },
      upsert: false,
      graph: false,
      subscribe: false,
      ...(options.correlation ? { correlation: true } : {}),
    },
    async query(query) {
      if (query.goal === "ocp-fail") throw wireError("unsupported_kind", "no images here");
      if (query.goal === "plain-fail") throw new TypeError("boom");
      if (query.goal === "invalid-result")
        return { frames: "not a list", truncated: false } as never;
      if (query.goal.startsWith("delay:"))
        await new Promise((r) => setTimeout(r, Number(query.goal.slice(6))));
      const frame = {
        id: query.goal,
        kind: "doc" as const,
        title: query.goal,
        content: "",
        score: 1,
        token_cost: 1,
        citation_label: "c",
        provenance: [],
        relations: [],
      };
      return { frames: [frame], truncated: false, dropped_estimate: null };
    },
    async shutdown() {
      calls.shutdown += 1;
    },
  };
  return { provider, calls };
}

/**
 * Serves `provider` over in-memory streams; `next()` reads the next reply.
 * The host asked for our extensions, as `@ocp/transport-stdio`'s spawn does,
 * unless `plain`.
 */
function serve(provider: ContextProvider, plain = false) {
  const input = new PassThrough();
  const output = new PassThrough();
  const logs: string[] = [];
  const exits: number[] = [];
  const server = serveStdio(provider, {
    input,
    output,
    extensions: plain ? "" : "correlation,error_code",
    log: (m) => logs.push(m),
    exit: (c) => exits.push(c),
  });
  let buffered = "";
  const waiting: ((envelope: Envelope) => void)[] = [];
  const ready: Envelope[] = [];
  output.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    let newline = buffered.indexOf("\n");
    while (newline !== -1) {
      const decoded = decodeLine(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
      if (!decoded.ok) throw decoded.error;
      const take = waiting.shift();
      if (take) take(decoded.value);
      else ready.push(decoded.value);
      newline = buffered.indexOf("\n");
    }
  });
  const next = (): Promise<Envelope> => {
    const envelope = ready.shift();
    if (envelope) return Promise.resolve(envelope);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no reply within 5 s")), 5_000);
      waiting.push((value) => {
        clearTimeout(timer);
        resolve(value);
      });
    });
  };
  const write = (text: string) => input.write(text);
  return { input, output, next, write, logs, exits, server };
}

const HANDSHAKE = '{"type":"handshake","protocol_version":"ocp/1.0-draft"}\n';

/** Serves `provider` and completes the handshake, which every query must follow. */
async function serveHandshaken(provider: ContextProvider) {
  const served = serve(provider);
  served.write(HANDSHAKE);
  expect(await served.next()).toMatchObject({ type: "handshake_ack" });
  return served;
}

const q = (goal: string, id?: string) =>
  `${JSON.stringify({ type: "query", ...(id ? { id } : {}), query: { goal, max_frames: 1, max_tokens: 10 } })}\n`;

describe("serveStdio", () => {
  it("answers the handshake with the provider's identity and capabilities, without correlation unless declared", async () => {
    const { next, write } = serve(inMemoryProvider().provider);
    write(HANDSHAKE);
    const ack = await next();
    expect(ack).toMatchObject({
      type: "handshake_ack",
      protocol_version: "ocp/1.0-draft",
      provider: { name: "mem" },
    });
    if (ack.type !== "handshake_ack") throw new Error("no ack");
    expect(ack.capabilities.correlation).toBeUndefined();
  });

  it("H3: answers a handshake of another major family with an incompatible_version error", async () => {
    const { next, write } = serve(inMemoryProvider().provider);
    write('{"type":"handshake","protocol_version":"ocp/2.0"}\n');
    expect(await next()).toMatchObject({ type: "error", code: "incompatible_version" });
  });

  it("R1: answers a malformed line, a non-envelope and an unexpected envelope with bad_request, and goes on", async () => {
    const { next, write, logs, exits } = await serveHandshaken(inMemoryProvider().provider);
    write("this is not json\n");
    expect(await next()).toMatchObject({ type: "error", code: "bad_request" });
    write('{"type":"query","query":{"goal":1}}\n');
    expect(await next()).toMatchObject({ type: "error", code: "bad_request" });
    write('{"type":"frames","result":{"frames":[],"truncated":false}}\n');
    expect(await next()).toMatchObject({ type: "error", code: "bad_request" });
    // A query nested far deeper than a call stack is one more malformed line.
    write(
      `{"type":"query","query":{"goal":"g","anchors":${"[".repeat(200_000)}${"]".repeat(200_000)}}}\n`,
    );
    expect(await next()).toMatchObject({ type: "error", code: "bad_request" });
    write(q("still here"));
    expect(await next()).toMatchObject({
      type: "frames",
      result: { frames: [{ id: "still here" }] },
    });
    expect(logs.length).toBeGreaterThanOrEqual(1);
    expect(exits).toEqual([]);
  });

  it("R1: answers a line over the maximum with bad_request and reads the next line", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const { provider } = inMemoryProvider();
    serveStdio(provider, {
      input,
      output,
      maxLineBytes: 100,
      log: () => {},
      exit: () => {},
      extensions: "error_code",
    });
    const replies: string[] = [];
    output.on("data", (chunk: Buffer) => replies.push(...chunk.toString().trim().split("\n")));
    input.write(HANDSHAKE);
    input.write(`${"x".repeat(200)}\n`);
    input.write(q("ok"));
    for (let i = 0; i < 250 && replies.length < 3; i += 1)
      await new Promise((r) => setTimeout(r, 20));
    expect(JSON.parse(replies[0]!)).toMatchObject({ type: "handshake_ack" });
    expect(JSON.parse(replies[1]!)).toMatchObject({ type: "error", code: "bad_request" });
    expect(JSON.parse(replies[2]!)).toMatchObject({ type: "frames" });
  });

  it("answers queries without id one at a time, in order", async () => {
    const { next, write } = await serveHandshaken(inMemoryProvider().provider);
    write(q("delay:60"));
    write(q("delay:0"));
    expect(await next()).toMatchObject({ result: { frames: [{ id: "delay:60" }] } });
    const second = await next();
    expect(second).toMatchObject({ result: { frames: [{ id: "delay:0" }] } });
    expect("id" in second && second.id).toBeFalsy();
  });

  it("runs queries with ids concurrently and echoes each id on its reply", async () => {
    const { next, write } = await serveHandshaken(inMemoryProvider({ correlation: true }).provider);
    write(q("delay:80", "slow"));
    write(q("delay:0", "fast"));
    expect(await next()).toMatchObject({ type: "frames", id: "fast" });
    expect(await next()).toMatchObject({ type: "frames", id: "slow" });
  });

  it("writes the replies of one burst in batches of at most LINES_PER_WRITE lines, none lost, ids echoed", async () => {
    const served = await serveHandshaken(inMemoryProvider({ correlation: true }).provider);
    const writes: number[] = [];
    const output = served.output;
    const original = output.write.bind(output);
    output.write = ((chunk: string, ...rest: never[]) => {
      writes.push(chunk.split("\n").length - 1);
      return original(chunk, ...rest);
    }) as typeof output.write;
    const count = 3 * LINES_PER_WRITE + 3;
    served.write(Array.from({ length: count }, (_, i) => q(`g${i}`, `id${i}`)).join(""));
    const replies = await Promise.all(Array.from({ length: count }, () => served.next()));
    expect(replies.map((r) => ("id" in r ? r.id : undefined)).sort()).toEqual(
      Array.from({ length: count }, (_, i) => `id${i}`).sort(),
    );
    expect(writes.reduce((a, b) => a + b, 0)).toBe(count);
    expect(Math.max(...writes)).toBe(LINES_PER_WRITE);
    expect(writes.length).toBe(4);
  });

  it("turns a provider failure into an error envelope: its wire code, or internal", async () => {
    const { next, write } = await serveHandshaken(inMemoryProvider({ correlation: true }).provider);
    write(q("ocp-fail", "a"));
    expect(await next()).toEqual({
      type: "error",
      id: "a",
      code: "unsupported_kind",
      message: "no images here",
    });
    write(q("plain-fail"));
    expect(await next()).toEqual({ type: "error", code: "internal", message: "boom" });
  });

  it("answers an internal error, never an invalid envelope, when the provider returns an invalid result", async () => {
    const { next, write, logs } = await serveHandshaken(
      inMemoryProvider({ correlation: true }).provider,
    );
    write(q("invalid-result", "bad"));
    expect(await next()).toMatchObject({ type: "error", id: "bad", code: "internal" });
    expect(logs.some((line) => line.includes("unencodable"))).toBe(true);
  });

  it("R2: on shutdown, tears the provider down and exits with code 0", async () => {
    const { provider, calls } = inMemoryProvider();
    const { write, exits, server } = serve(provider);
    write('{"type":"shutdown"}\n');
    expect(await server.done).toBe(0);
    expect(exits).toEqual([0]);
    expect(calls.shutdown).toBe(1);
  });

  it("exits with code 0 when its input ends (the host is gone)", async () => {
    const { provider, calls } = inMemoryProvider();
    const { input, exits, server } = serve(provider);
    input.end();
    expect(await server.done).toBe(0);
    expect(exits).toEqual([0]);
    expect(calls.shutdown).toBe(1);
  });

  it("R1, R2: in a real child, writes only envelopes to stdout, logs to stderr, survives garbage and exits 0 on shutdown", async () => {
    const child = spawn(process.execPath, [fixture("served.mjs")], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) =>
      child.once("exit", (code) => resolve(code)),
    );
    child.stdin.write('{"type":"handshake","protocol_version":"ocp/1.0-draft"}\n');
    child.stdin.write("{ garbage\n");
    child.stdin.write(q("log"));
    child.stdin.write('{"type":"shutdown"}\n');
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    expect(await exited).toBe(0);
    clearTimeout(timer);
    const lines = stdout
      .trim()
      .split("\n")
      .map((line) => decodeLine(line));
    expect(lines.every((line) => line.ok)).toBe(true);
    expect(lines.map((line) => (line.ok ? line.value.type : "?"))).toEqual([
      "handshake_ack",
      "error",
      "frames",
    ]);
    expect(stderr).toContain("a log line, on stderr");
    expect(stderr).toContain("malformed line");
  });
});
