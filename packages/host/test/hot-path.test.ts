import { fileURLToPath } from "node:url";
import { ContextQuerySchema, isOcpError } from "@ocp/types";
import { afterEach, describe, expect, it } from "vitest";
import { Host } from "../src/index.js";
import { parseQuery } from "../src/registry.js";
import { COMPARED_MEMBERS } from "../src/sealed-query.js";
import { fakeProvider, QUERY } from "./helpers.js";

const PROVIDER = fileURLToPath(new URL("./fixtures/provider.mjs", import.meta.url));

let host: Host | undefined;
afterEach(async () => {
  await host?.shutdown({ timeoutMs: 2_000 });
  host = undefined;
});

/** How many times `run` reads `performance.now()`. */
async function clockReads(run: () => Promise<unknown>): Promise<number> {
  const now = performance.now;
  let reads = 0;
  performance.now = () => {
    reads += 1;
    return now.call(performance);
  };
  try {
    await run();
  } finally {
    performance.now = now;
  }
  return reads;
}

describe("the host's per-call path", () => {
  it("the same question asked again gets the same sealed query back, equal to a fresh seal", () => {
    const first = parseQuery({ ...QUERY, kinds: [...QUERY.kinds] });
    const again = parseQuery({ ...QUERY, kinds: [...QUERY.kinds] });
    expect(again).toBe(first);
    expect(Object.isFrozen(again)).toBe(true);
    expect(Object.isFrozen(again.kinds)).toBe(true);
    expect(again).toEqual(ContextQuerySchema.parse(QUERY));
    // An absent list is the empty one the schema fills in; an empty one given is the same question.
    expect(parseQuery({ ...QUERY, anchors: [] })).toBe(first);
    expect(parseQuery({ ...QUERY, kinds: undefined })).toEqual(
      ContextQuerySchema.parse({ ...QUERY, kinds: [] }),
    );
  });

  it("a query that differs from the last in any one member, list item or null is sealed afresh with that value", () => {
    const base = {
      goal: "g",
      query_text: "t",
      embedding: [0.5, 0.25],
      kinds: ["doc"],
      anchors: ["a"],
      max_frames: 4,
      max_tokens: 100,
      as_of: "2026-01-01T00:00:00Z",
    };
    const variants: Record<string, unknown>[] = [
      { goal: "h" },
      { query_text: "u" },
      { query_text: null },
      { embedding: [0.5, 0.75] },
      { embedding: [0.5] },
      { embedding: [0.5, -0] },
      { embedding: undefined },
      { kinds: ["snippet"] },
      { kinds: [] },
      { kinds: undefined },
      { anchors: undefined },
      { anchors: ["b"] },
      { anchors: ["a", "b"] },
      { max_frames: 5 },
      { max_tokens: 101 },
      { as_of: "2026-01-02T00:00:00Z" },
    ];
    for (const change of variants) {
      const sealed = parseQuery(base as never);
      const changed = { ...base, ...change };
      const next = parseQuery(changed as never);
      expect(next, JSON.stringify(change)).not.toBe(sealed);
      expect(next).toEqual(ContextQuerySchema.parse(changed));
    }
  });

  it("a caller that edits its own query object between calls gets the edited query, never the last one", () => {
    const query = { ...QUERY, kinds: ["doc" as const] };
    const first = parseQuery(query);
    query.max_tokens = 50;
    (query.kinds as string[]).push("snippet");
    const second = parseQuery(query);
    expect(second).not.toBe(first);
    expect(second.max_tokens).toBe(50);
    expect(second.kinds).toEqual(["doc", "snippet"]);
    expect(first.max_tokens).toBe(QUERY.max_tokens);
  });

  it("a query that leaves its lists out, carries undeclared members or nulls seals to exactly what the schema makes of it", () => {
    const inputs: Record<string, unknown>[] = [
      { goal: "g", max_frames: 1, max_tokens: 2 },
      { goal: "g", kinds: ["doc"], max_frames: 1, max_tokens: 2 },
      { goal: "g", anchors: ["x"], max_frames: 1, max_tokens: 2, extra: { deep: true } },
      { goal: "g", query_text: null, embedding: null, as_of: null, max_frames: 1, max_tokens: 2 },
      { goal: "", query_text: "q", embedding: [1, 2], kinds: [], max_frames: 0, max_tokens: 0 },
    ];
    for (const input of inputs) {
      const sealed = parseQuery(input as never);
      expect(sealed, JSON.stringify(input)).toEqual(ContextQuerySchema.parse(input));
      expect(Object.isFrozen(sealed)).toBe(true);
      expect(Object.isFrozen(sealed.kinds) && Object.isFrozen(sealed.anchors)).toBe(true);
      expect("extra" in sealed).toBe(false);
    }
    const refused: Record<string, unknown>[] = [
      { goal: "g", kinds: ["not-a-kind"], max_frames: 1, max_tokens: 2 },
      { goal: "g", anchors: "x", max_frames: 1, max_tokens: 2 },
      { goal: "g", max_frames: -1, max_tokens: 2 },
      { goal: "g", max_frames: 1 },
      { max_frames: 1, max_tokens: 2 },
    ];
    for (const input of refused) {
      expect(ContextQuerySchema.safeParse(input).success).toBe(false);
      expect(() => parseQuery(input as never), JSON.stringify(input)).toThrow(/invalid query/);
    }
  });

  it("compares every member the query schema declares", () => {
    expect(Object.keys(ContextQuerySchema.shape)).toEqual([...COMPARED_MEMBERS]);
  });

  it("an invalid query after a valid one is still refused (the reuse never skips the check)", () => {
    parseQuery(QUERY);
    expect(() => parseQuery({ ...QUERY, max_tokens: -1 })).toThrow(/invalid query/);
    expect(() => parseQuery({ ...QUERY, goal: 7 } as never)).toThrow(/invalid query/);
  });

  it("a one-provider fan-out over stdio reads the clock no more often than a single query, and reports its leg's latency as its elapsed time", async () => {
    host = new Host({ warn: () => undefined });
    await host.addStdio({
      id: "docs",
      command: process.execPath,
      args: [PROVIDER, "honest", "docs"],
    });
    await host.queryAll(QUERY);
    const single = await clockReads(() => host!.queryProvider("docs", QUERY));
    let fanned: Awaited<ReturnType<Host["queryAll"]>> | undefined;
    const fan = await clockReads(async () => {
      fanned = await host!.queryAll(QUERY);
    });
    expect(fan).toBe(single);
    expect(fanned!.accepted.map((a) => a.frame.citation_label)).toEqual(["docs §1", "docs §2"]);
    expect(fanned!.elapsedMs).toBe(Math.round(fanned!.usage[0]!.latencyMs));
  });

  it("a fan-out over several providers is timed from before its first leg: elapsedMs covers the slowest", async () => {
    host = new Host({ warn: () => undefined });
    const slow = (id: string, ms: number) =>
      fakeProvider({
        id,
        answer: () =>
          new Promise((resolve) => setTimeout(() => resolve({ frames: [], truncated: false }), ms)),
      });
    host.add(slow("fast", 5));
    host.add(slow("slow", 60));
    const result = await host.queryAll(QUERY);
    expect(result.usage.map((u) => u.outcome)).toEqual(["ok", "ok"]);
    expect(result.elapsedMs).toBeGreaterThanOrEqual(Math.floor(result.usage[1]!.latencyMs));
    expect(result.elapsedMs).toBeGreaterThanOrEqual(55);
  });

  it("a call's own timeout and signal apply to that call only: the calls after it keep the provider's", async () => {
    host = new Host({ warn: () => undefined, legTimeoutMs: 300 });
    host.add(fakeProvider({ id: "hangs", answer: () => new Promise(() => undefined) }));
    const timeoutOf = async (options?: { timeoutMs?: number; signal?: AbortSignal }) => {
      const error = await host!.queryProvider("hangs", QUERY, options).catch((e: unknown) => e);
      expect(isOcpError(error)).toBe(true);
      return error as { code: string; message: string };
    };
    expect((await timeoutOf()).message).toContain("300 ms");
    expect((await timeoutOf({ timeoutMs: 40 })).message).toContain("40 ms");
    expect((await timeoutOf()).message).toContain("300 ms");
    expect((await timeoutOf({ signal: AbortSignal.abort() })).code).toBe("aborted");
    const after = await timeoutOf();
    expect(after.code).toBe("timeout");
    expect(after.message).toContain("300 ms");
    const fanned = await host.queryAll(QUERY, { timeoutMs: 30 });
    expect(fanned.failures[0]?.error.message).toContain("30 ms");
    expect((await host.queryAll(QUERY)).failures[0]?.error.message).toContain("300 ms");
  });
});
