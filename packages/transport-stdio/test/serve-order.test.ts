import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { decodeLine, type Envelope } from "@ocp/types";
import { afterEach, describe, expect, it } from "vitest";
import { fixture } from "./helpers.js";

const HANDSHAKE = '{"type":"handshake","protocol_version":"ocp/1.0-draft"}';
const SHUTDOWN = '{"type":"shutdown"}';
const query = (goal: string, id?: string) =>
  JSON.stringify({
    type: "query",
    ...(id === undefined ? {} : { id }),
    query: { goal, max_frames: 1, max_tokens: 10 },
  });
/** A query envelope that fails the schema (`goal` is not a string). */
const INVALID_QUERY = '{"type":"query","query":{"goal":42,"max_frames":1,"max_tokens":10}}';
const NOT_JSON = "this is not json {{{";
const UNEXPECTED = '{"type":"frames","result":{"frames":[],"truncated":false}}';

interface Served {
  readonly child: ChildProcessWithoutNullStreams;
  /** Writes `lines` to the child's stdin in one write, each ended by a newline. */
  write(...lines: string[]): void;
  /** The next `count` envelopes the child writes on stdout (fails after 10 s). */
  replies(count: number): Promise<Envelope[]>;
  /** What the child wrote on stderr so far (complete once `exited` settles). */
  stderr(): string;
  /** The exit code, once the child is gone and its pipes are closed. */
  exited: Promise<number | null>;
}

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
});

/** Spawns test/fixtures/served.mjs (a real serveStdio provider) and talks raw NDJSON to it. */
function serveChild(args: string[] = []): Served {
  const child = spawn(process.execPath, [fixture("served.mjs"), "--trace", ...args], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, OCP_EXTENSIONS: "correlation,error_code" },
  });
  children.push(child);
  let pending = "";
  let stderr = "";
  const received: Envelope[] = [];
  let wake: (() => void) | undefined;
  child.stdout.on("data", (chunk: Buffer) => {
    pending += chunk.toString();
    let newline = pending.indexOf("\n");
    while (newline !== -1) {
      const decoded = decodeLine(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
      if (!decoded.ok) throw decoded.error;
      received.push(decoded.value);
      newline = pending.indexOf("\n");
    }
    wake?.();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once("close", (code) => resolve(code)),
  );
  let taken = 0;
  const replies = async (count: number): Promise<Envelope[]> => {
    const deadline = Date.now() + 10_000;
    while (received.length < taken + count) {
      if (Date.now() > deadline)
        throw new Error(
          `${received.length - taken} of ${count} replies within 10 s; stderr: ${stderr}`,
        );
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 100);
      });
    }
    const out = received.slice(taken, taken + count);
    taken += count;
    return out;
  };
  return {
    child,
    write: (...lines) => child.stdin.write(lines.map((line) => `${line}\n`).join("")),
    replies,
    stderr: () => stderr,
    exited,
  };
}

/** A short, order-revealing label per reply: `frames <goal>`, `error <code>`, `handshake_ack`. */
function label(envelope: Envelope): string {
  switch (envelope.type) {
    case "frames":
      return `frames ${envelope.result.frames[0]?.title}`;
    case "error":
      return `error ${envelope.code}`;
    default:
      return envelope.type;
  }
}

async function shutDown(served: Served): Promise<void> {
  served.write(SHUTDOWN);
  expect(await served.exited).toBe(0);
}

describe("serveStdio in a real child: id-less messages are answered in arrival order", () => {
  it("answers an id-less valid query, then an id-less invalid one, in that order", async () => {
    const served = serveChild();
    served.write(HANDSHAKE);
    expect((await served.replies(1)).map(label)).toEqual(["handshake_ack"]);
    served.write(query("delay:150"), INVALID_QUERY);
    const [first, second] = await served.replies(2);
    expect(first).toMatchObject({ type: "frames", result: { frames: [{ title: "delay:150" }] } });
    expect(second).toMatchObject({ type: "error", code: "bad_request" });
    expect(second?.type === "error" && second.message).toContain("query.goal");
    await shutDown(served);
  });

  it("keeps the order of a burst mixing valid, failing and invalid id-less lines", async () => {
    const served = serveChild(["--max-line-bytes", "200"]);
    const burst: [line: string, expected: string, message?: RegExp][] = [
      [HANDSHAKE, "handshake_ack"],
      [query("delay:120"), "frames delay:120"],
      [NOT_JSON, "error bad_request", /not JSON/],
      [query("delay:0"), "frames delay:0"],
      [INVALID_QUERY, "error bad_request", /query\.goal/],
      [query("fail"), "error unsupported_kind", /no such kind/],
      [UNEXPECTED, "error bad_request", /does not accept "frames"/],
      [query("delay:60"), "frames delay:60"],
      [`"${"x".repeat(300)}"`, "error bad_request", /200/],
      [query("a"), "frames a"],
      ["[1,2,3]", "error bad_request"],
      [HANDSHAKE, "handshake_ack"],
      [query("delay:30"), "frames delay:30"],
      ['{"type":"handshake","protocol_version":"ocp/2.0"}', "error incompatible_version"],
      [query("b"), "frames b"],
      ['{"type":"no_such_type"}', "error bad_request"],
    ];
    served.write(...burst.map(([line]) => line));
    const replies = await served.replies(burst.length);
    expect(replies.map(label)).toEqual(burst.map(([, expected]) => expected));
    for (const [index, [, , message]] of burst.entries()) {
      const reply = replies[index];
      if (message) expect(reply?.type === "error" && reply.message).toMatch(message);
      expect(reply && "id" in reply ? reply.id : undefined).toBeUndefined();
    }
    await shutDown(served);
  });

  it("keeps the order when the lines of a burst arrive one write at a time", async () => {
    const served = serveChild();
    served.write(HANDSHAKE);
    await served.replies(1);
    const lines = [query("delay:80"), NOT_JSON, query("delay:10"), INVALID_QUERY, query("c")];
    for (const line of lines) served.write(line);
    expect((await served.replies(lines.length)).map(label)).toEqual([
      "frames delay:80",
      "error bad_request",
      "frames delay:10",
      "error bad_request",
      "frames c",
    ]);
    await shutDown(served);
  });
});

describe("serveStdio in a real child: nothing reaches the provider before a successful handshake", () => {
  it("refuses a query sent before any handshake with a clear error, and never calls the provider", async () => {
    const served = serveChild();
    served.write(query("too-early"), query("too-early-with-id", "q1"));
    const replies = await served.replies(2);
    const byId = new Map(replies.map((reply) => ["id" in reply ? reply.id : undefined, reply]));
    for (const id of [undefined, "q1"]) {
      const reply = byId.get(id);
      expect(reply).toMatchObject({ type: "error", code: "bad_request" });
      expect(reply?.type === "error" && reply.message).toMatch(/handshake/);
    }
    // An `error` the reference wire allows: type and message, plus only our
    // X-CODE and X-CORR extensions.
    for (const reply of replies) {
      expect(Object.keys(reply).sort()).toEqual(
        "id" in reply ? ["code", "id", "message", "type"] : ["code", "message", "type"],
      );
    }
    await shutDown(served);
    expect(served.stderr()).toContain("before the handshake");
    expect(served.stderr()).not.toContain("query called");
    expect(served.stderr()).toContain("shutdown called");
  });

  it("refuses queries after a refused handshake (another major family) too", async () => {
    const served = serveChild();
    served.write('{"type":"handshake","protocol_version":"ocp/2.0"}', query("after-refusal"));
    expect((await served.replies(2)).map(label)).toEqual([
      "error incompatible_version",
      "error bad_request",
    ]);
    await shutDown(served);
    expect(served.stderr()).not.toContain("query called");
  });

  it("answers queries, with and without id, once the handshake succeeded", async () => {
    const served = serveChild(["--correlation"]);
    served.write(query("early"), HANDSHAKE, query("late"), query("late-with-id", "q2"));
    const replies = await served.replies(4);
    const idLess = replies.filter((reply) => !("id" in reply) || reply.id === undefined);
    expect(idLess.map(label)).toEqual(["error bad_request", "handshake_ack", "frames late"]);
    expect(replies.find((reply) => "id" in reply && reply.id === "q2")).toMatchObject({
      type: "frames",
      result: { frames: [{ title: "late-with-id" }] },
    });
    await shutDown(served);
    const calls = served
      .stderr()
      .split("\n")
      .filter((line) => line.startsWith("query called"));
    expect(calls.sort()).toEqual(["query called: late", "query called: late-with-id"]);
  });
});
