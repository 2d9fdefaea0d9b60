import { join } from "node:path";
import { spawnStdioProvider } from "@ocp/transport-stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectMcpProvider, type McpProvider } from "../src/from-mcp.js";
import { MIN_RELEVANCE } from "../src/limits.js";
import { ResourceRanker } from "../src/ranker.js";
import { fromMcpCli, root, SLOW } from "./helpers.js";

/** note://budgets and 40 meeting notes sharing only near-spellings with it. */
const edgeServer = join(root, "test", "fixtures", "edge-server.mjs");
const ask = (goal: string) => ({ goal, kinds: [], anchors: [], max_tokens: 8192, max_frames: 16 });

let provider: McpProvider;
beforeAll(async () => {
  provider = await connectMcpProvider({
    target: { kind: "stdio", command: process.execPath, args: [edgeServer, "--library"] },
  });
}, SLOW);
afterAll(async () => {
  await provider?.shutdown();
});

describe("ocp-from-mcp returns only relevant resources, never filler for the budget", () => {
  it(
    "a goal about token budgets gets the budgets note alone, though the budget had room for 16 frames",
    async () => {
      const result = await provider.query(ask("how are token budgets counted?"));
      expect(result.frames.map((frame) => frame.uri)).toEqual(["note://budgets"]);
      expect(result.truncated).toBe(false);
      for (const frame of result.frames) expect(frame.score).toBeGreaterThanOrEqual(MIN_RELEVANCE);
    },
    SLOW,
  );

  it(
    "a goal that matches nothing but near-spellings and stop words gets no frames, not truncated",
    async () => {
      for (const goal of ["what is the weather in Paris?", "how is it, and where are they?"]) {
        const result = await provider.query(ask(goal));
        expect(result.frames, goal).toEqual([]);
        expect(result.truncated).toBe(false);
      }
    },
    SLOW,
  );

  it(
    "through the CLI, a host gets the same single frame with no score under MIN_RELEVANCE",
    async () => {
      const bridge = await spawnStdioProvider({
        id: "bridge",
        command: process.execPath,
        args: [fromMcpCli, "--", process.execPath, edgeServer, "--library"],
        handshakeTimeoutMs: 30_000,
      });
      try {
        const result = await bridge.query(ask("token budgets"));
        expect(result.frames.map((frame) => [frame.uri, frame.score])).toEqual([
          ["note://budgets", 1],
        ]);
      } finally {
        await bridge.shutdown();
      }
    },
    SLOW,
  );
});

describe("ResourceRanker relevance", () => {
  const docs = [
    { uri: "doc://a", name: "versions", title: "Version compatibility", text: "major minor" },
    { uri: "doc://b", name: "release", title: "Release train", text: "versions ship monthly" },
    { uri: "doc://c", name: "lunch", title: "Lunch menu", text: "soup" },
  ];
  const ranker = new ResourceRanker(docs);

  it("scores a resource by BM25 over the best times the share of goal terms it matches", () => {
    const ranked = ranker.rank("version compatibility");
    expect(ranked[0]).toEqual({ doc: docs[0], score: 1 });
    expect(ranked.map((hit) => hit.doc.uri)).not.toContain("doc://c");
    for (const hit of ranked.slice(1)) expect(hit.score).toBeLessThanOrEqual(0.5);
  });

  it("drops what scores under MIN_RELEVANCE and searches no stop word or single letter", () => {
    for (const hit of ranker.rank("versions of the release and a menu")) {
      expect(hit.score).toBeGreaterThanOrEqual(MIN_RELEVANCE);
    }
    expect(ranker.rank("how is it for a")).toEqual([]);
  });
});
