import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Corpus } from "../src/corpus.js";
import { ANCHOR_BOOST, MAX_FILE_BYTES } from "../src/limits.js";
import { DemoProvider } from "../src/provider.js";
import { countTokens } from "../src/tokens.js";

let dir: string;
let corpus: Corpus;
let provider: DemoProvider;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ocp-demo-corpus-"));
  mkdirSync(join(dir, "docs"));
  mkdirSync(join(dir, "src"));
  mkdirSync(join(dir, "node_modules", "dep"), { recursive: true });
  mkdirSync(join(dir, "build"));
  writeFileSync(join(dir, ".gitignore"), "build/\n*.secret\n");
  writeFileSync(
    join(dir, "docs", "retry.md"),
    "# Retry policy\n\nRetries are configured in Config::retry.\nmax_attempts bounds the tries; backoff_ms doubles.\n\n# Logging\n\nLogs go to stderr.\n",
  );
  writeFileSync(
    join(dir, "src", "config.ts"),
    "export interface RetryPolicy {\n  max_attempts: number;\n  backoff_ms: number;\n}\n\nexport function loadConfig() {\n  return { retry: { max_attempts: 3, backoff_ms: 100 } };\n}\n",
  );
  writeFileSync(join(dir, "src", "other.ts"), "export const retryLabel = 'retry policy';\n");
  writeFileSync(
    join(dir, "node_modules", "dep", "README.md"),
    "# Retry policy\nvendored, never indexed\n",
  );
  writeFileSync(join(dir, "build", "out.md"), "# Retry policy\nignored by .gitignore\n");
  writeFileSync(join(dir, "key.secret"), "retry policy secret\n");
  writeFileSync(join(dir, "image.bin"), Buffer.from([0x72, 0x65, 0, 1, 2]));
  writeFileSync(
    join(dir, "blob.txt"),
    Buffer.concat([Buffer.from("retry policy"), Buffer.from([0])]),
  );
  writeFileSync(join(dir, "huge.md"), `# Retry policy\n${"x".repeat(MAX_FILE_BYTES)}`);
  corpus = await Corpus.build([dir]);
  provider = new DemoProvider(corpus);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const query = (over: Record<string, unknown> = {}) => ({
  goal: "how do I configure the retry policy?",
  kinds: [],
  anchors: [],
  max_frames: 10,
  max_tokens: 10_000,
  ...over,
});

describe("indexing", () => {
  it("skips node_modules, ignored files, binaries and files over the size limit", () => {
    const paths = new Set(corpus.entries.map((e) => e.relpath));
    expect([...paths].sort()).toEqual(["docs/retry.md", "src/config.ts", "src/other.ts"]);
  });
});

describe("DemoProvider.query", () => {
  it("ranks the matching section first and normalises scores into [0, 1]", async () => {
    const result = await provider.query(query());
    expect(result.frames[0]?.title).toBe("Retry policy");
    expect(result.frames[0]?.score).toBe(1);
    for (const frame of result.frames) {
      expect(frame.score).toBeGreaterThanOrEqual(0);
      expect(frame.score).toBeLessThanOrEqual(1);
    }
  });

  it("serves honest frames: BPE token cost, file provenance whose digest matches the cited lines", async () => {
    const result = await provider.query(query());
    for (const frame of result.frames) {
      expect(frame.token_cost).toBe(countTokens(frame.content));
      const [provenance] = frame.provenance;
      expect(provenance?.type).toBe("file");
      const lines = readFileSync(fileURLToPath(provenance!.uri!), "utf8").split("\n");
      const [, start, end] = /^L(\d+)-(\d+)$/.exec(provenance!.range!)!.map(Number);
      const served = lines.slice(start! - 1, end).join("\n");
      expect(served).toBe(frame.content);
      expect(provenance?.digest).toBe(
        `sha256:${createHash("sha256").update(served).digest("hex")}`,
      );
      expect(frame.citation_label).toMatch(/^[\w./-]+ L\d+(-\d+)?$/);
      expect(Number.isNaN(Date.parse(frame.recorded_at!))).toBe(false);
    }
  });

  it("returns only the kinds asked for", async () => {
    const symbols = await provider.query(query({ kinds: ["symbol"] }));
    expect(symbols.frames.length).toBeGreaterThan(0);
    expect(symbols.frames.every((f) => f.kind === "symbol")).toBe(true);
  });

  it("refuses a query for kinds it does not serve with unsupported_kind", async () => {
    await expect(provider.query(query({ kinds: ["episode"] }))).rejects.toMatchObject({
      code: "unsupported_kind",
    });
  });

  it("honours max_frames and says how many it dropped", async () => {
    const all = await provider.query(query());
    const one = await provider.query(query({ max_frames: 1 }));
    expect(one.frames).toHaveLength(1);
    expect(one.truncated).toBe(true);
    expect(one.dropped_estimate).toBe(all.frames.length - 1);
  });

  it("never exceeds max_tokens, returning the best frames that fit", async () => {
    const all = await provider.query(query());
    const smallest = Math.min(...all.frames.map((f) => f.token_cost));
    const tight = await provider.query(query({ max_tokens: smallest }));
    expect(tight.frames.reduce((n, f) => n + f.token_cost, 0)).toBeLessThanOrEqual(smallest);
    expect(tight.frames).toHaveLength(1);
    const none = await provider.query(query({ max_tokens: 0 }));
    expect(none.frames).toEqual([]);
    expect(none.truncated).toBe(true);
  });

  it("an empty result for a query nothing matches is not truncated", async () => {
    const result = await provider.query(query({ goal: "zzzqqq" }));
    expect(result).toEqual({ frames: [], truncated: false });
  });

  it("boosts hits from anchored files by ANCHOR_BOOST, named by path or by file URI", async () => {
    const plain = corpus.query("retry", [], [], ANCHOR_BOOST);
    const target = plain.at(-1)!.entry;
    const scoreOf = (hits: typeof plain, id: string) => hits.find((h) => h.entry.id === id)!.score;
    const byPath = corpus.query("retry", [], [target.path], ANCHOR_BOOST);
    expect(scoreOf(byPath, target.id)).toBeCloseTo(scoreOf(plain, target.id) * ANCHOR_BOOST, 9);
    for (const hit of plain.filter((h) => h.entry.path !== target.path)) {
      expect(scoreOf(byPath, hit.entry.id)).toBe(hit.score);
    }
    const byUri = await provider.query(query({ goal: "retry", anchors: [target.uri] }));
    const byRelative = await provider.query(query({ goal: "retry", anchors: [target.relpath] }));
    expect(byUri).toEqual(byRelative);
    expect(byUri).not.toEqual(await provider.query(query({ goal: "retry" })));
  });

  it("answers the same query with the same frames every time", async () => {
    expect(await provider.query(query())).toEqual(await provider.query(query()));
  });
});
