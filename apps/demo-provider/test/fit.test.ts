import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ContextFrame, isOcpError } from "@ocp/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Corpus, commonRoot } from "../src/corpus.js";
import { fitPart } from "../src/fit.js";
import { MIN_PART_TOKENS } from "../src/limits.js";
import { DemoProvider } from "../src/provider.js";
import { countTokens } from "../src/tokens.js";

let dir: string;
let provider: DemoProvider;

const filler = (topic: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) => `Paragraph ${i} about ${topic} talks at length of unrelated matters here.`,
  );

/** A 70-line section whose only line about leases sits in the middle. */
const LONG = [
  "# Storage engine",
  "",
  ...filler("pages", 30),
  "Leases expire after lease_ttl_ms and a renewal extends the lease.",
  ...filler("indexes", 37),
].join("\n");

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ocp-demo-fit-"));
  mkdirSync(join(dir, "alpha"));
  mkdirSync(join(dir, "beta"));
  writeFileSync(join(dir, "alpha", "README.md"), `${LONG}\n`);
  writeFileSync(
    join(dir, "beta", "README.md"),
    "# Lease renewal\n\nA lease renewal is sent before the lease expires.\n",
  );
  writeFileSync(join(dir, "oneline.md"), `# Lease wall\n${"lease ".repeat(400)}\n`);
  // Two file roots in different folders: cited relative to their common folder.
  provider = new DemoProvider(
    await Corpus.build([join(dir, "alpha", "README.md"), join(dir, "beta", "README.md")]),
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const query = (over: Record<string, unknown> = {}) => ({
  goal: "when do leases expire and how is a lease renewal sent?",
  kinds: [],
  anchors: [],
  max_frames: 8,
  max_tokens: 10_000,
  ...over,
});

function expectHonest(frame: ContextFrame, root: string): void {
  const [path, range] = frame.citation_label!.split(" L");
  const [start, end] = range!.split("-").map(Number);
  const lines = readFileSync(join(root, path!), "utf8").split("\n");
  const served = lines.slice(start! - 1, (end ?? start!) as number).join("\n");
  expect(frame.content).toBe(served);
  expect(frame.token_cost).toBe(countTokens(served));
  expect(frame.provenance[0]?.range).toBe(`L${start}-${end ?? start}`);
  expect(frame.provenance[0]?.digest).toBe(
    `sha256:${createHash("sha256").update(served, "utf8").digest("hex")}`,
  );
  expect(frame.id.endsWith(`#L${start}-${end ?? start}`)).toBe(true);
}

describe("fitting a tight budget", () => {
  it("cites each file by its path relative to the provider's root, not its bare name", async () => {
    const { frames } = await provider.query(query());
    const labels = frames.map((f) => f.citation_label);
    expect(labels).toContain("beta/README.md L1-3");
    expect(labels.some((l) => l?.startsWith("alpha/README.md L"))).toBe(true);
    expect(await commonRoot([join(dir, "alpha"), join(dir, "beta", "README.md")])).toBe(dir);
    expect(await commonRoot([join(dir, "alpha")])).toBe(join(dir, "alpha"));
  });

  it("serves the best-fitting part of a section over the budget, with its own lines, digest and cost", async () => {
    const whole = countTokens(LONG);
    expect(whole).toBeGreaterThan(600);
    const result = await provider.query(query({ max_tokens: 120, kinds: ["doc"] }));
    const total = result.frames.reduce((n, f) => n + f.token_cost, 0);
    expect(total).toBeLessThanOrEqual(120);
    const part = result.frames.find((f) => f.citation_label?.startsWith("alpha/"));
    expect(part).toBeDefined();
    expectHonest(part!, dir);
    expect(part!.content).toContain("Leases expire after lease_ttl_ms");
    expect(part!.title).toMatch(/^Storage engine \(L\d+-\d+\)$/);
    expect(part!.provenance[0]?.uri).toBe(part!.uri);
    for (const frame of result.frames) expectHonest(frame, dir);
  });

  it("still answers with cited frames for every budget from the smallest part up", async () => {
    for (const max_tokens of [MIN_PART_TOKENS, 17, 40, 99, 300, 600, 601]) {
      const result = await provider.query(query({ max_tokens }));
      expect(result.frames.length).toBeGreaterThan(0);
      expect(result.frames.reduce((n, f) => n + f.token_cost, 0)).toBeLessThanOrEqual(max_tokens);
      for (const frame of result.frames) expectHonest(frame, dir);
    }
  });

  it("marks an answer with a cut section truncated", async () => {
    const result = await provider.query(query({ max_tokens: 120, max_frames: 1 }));
    expect(result.frames).toHaveLength(1);
    expect(result.truncated).toBe(true);
  });

  it("answers max_tokens 0 with no frames, truncated", async () => {
    const result = await provider.query(query({ max_tokens: 0 }));
    expect(result.frames).toEqual([]);
    expect(result.truncated).toBe(true);
  });

  it("answers budget_unsatisfiable when matching frames exist but no part of one fits", async () => {
    // The smallest section costs 14 tokens; parts need MIN_PART_TOKENS left.
    expect(MIN_PART_TOKENS).toBeGreaterThan(10);
    const error = await provider.query(query({ max_tokens: 10 })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isOcpError(error, "budget_unsatisfiable")).toBe(true);
    expect((error as Error).message).toMatch(/no frame fits in max_tokens 10/);
  });

  it("never cuts inside a line: one huge line over the budget is left out", async () => {
    const wall = new DemoProvider(await Corpus.build([join(dir, "oneline.md")]));
    const error = await wall.query(query({ max_tokens: 100 })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isOcpError(error, "budget_unsatisfiable")).toBe(true);
  });

  it("answers an empty result, not an error, when nothing matches", async () => {
    const result = await provider.query(query({ goal: "zyzzyva", max_tokens: 5 }));
    expect(result).toEqual({ frames: [], truncated: false });
  });
});

describe("fitPart", () => {
  it("prefers the window naming the query's terms and trims blank lines at its ends", () => {
    const text = ["# Title", "", "alpha beta", "", "", "gamma lease renewal", "", "delta"].join(
      "\n",
    );
    const part = fitPart(text, 10, 16, "lease renewal");
    expect(part).toBeDefined();
    expect(part!.content.split("\n")[0]).not.toBe("");
    expect(part!.content).toContain("gamma lease renewal");
    expect(part!.tokens).toBe(countTokens(part!.content));
    expect(part!.tokens).toBeLessThanOrEqual(16);
    expect(
      text
        .split("\n")
        .slice(part!.start - 10, part!.end - 9)
        .join("\n"),
    ).toBe(part!.content);
  });

  it("refuses budgets under the smallest part and text that is only blank", () => {
    expect(fitPart("a\nb\nc", 1, MIN_PART_TOKENS - 1, "a")).toBeUndefined();
    expect(fitPart("\n\n   \n", 1, 100, "a")).toBeUndefined();
    // A lone heading is not a part: the line after it is too long to fit.
    expect(fitPart(`# Lease wall\n${"lease ".repeat(400)}`, 1, 100, "lease")).toBeUndefined();
  });
});
