import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CGP_RULES } from "../src/cgp/index.js";
import {
  COST_TOLERANCE_RATIO,
  COST_TOLERANCE_SLACK,
  type ContextFrame,
  RULES,
  renderRuleTable,
  understatesCost,
} from "../src/index.js";
import { auditAnswer, countTokens, guardResult, packFrames } from "../src/kit.js";

const design = new URL("../../../docs/design.md", import.meta.url);

const frame = (patch: Partial<ContextFrame> = {}): ContextFrame => ({
  id: "f",
  kind: "doc",
  title: "Retry",
  content: "The retry loop doubles its delay.",
  score: 0.5,
  token_cost: 8,
  citation_label: "retry.md L1-2",
  provenance: [],
  relations: [],
  ...patch,
});
const query = { max_tokens: 100, max_frames: 8, kinds: [] as ("doc" | "snippet")[] };

describe("the rule table", () => {
  it("docs/design.md shows the table generated from RULES (fails when stale)", () => {
    const text = readFileSync(design, "utf8");
    const block = /<!-- rules -->\n([\s\S]*?)\n<!-- \/rules -->/.exec(text)?.[1];
    expect(block).toBe(renderRuleTable());
  });

  it("docs/design.md shows the contextgraph/1 table generated from CGP_RULES beside it (fails when stale)", () => {
    const text = readFileSync(design, "utf8");
    const block = /<!-- cgp-rules -->\n([\s\S]*?)\n<!-- \/cgp-rules -->/.exec(text)?.[1];
    expect(block).toBe(renderRuleTable(CGP_RULES));
    expect(block).not.toBe(renderRuleTable());
  });

  it("the host drops or refuses exactly what the suite fails, and trims exactly what it only advises on", () => {
    for (const rule of RULES) {
      if (rule.host === "drop" || rule.host === "refuse") expect(rule.suite, rule.id).toBe("fail");
      if (rule.host === "trim") expect(rule.suite, rule.id).toBe("advisory");
      if (rule.suite === "advisory") expect(rule.host, rule.id).toBe("trim");
    }
    expect(new Set(RULES.map((rule) => rule.id)).size).toBe(RULES.length);
  });

  it("T1 has one threshold: counted > declared × 2 + 16", () => {
    expect([COST_TOLERANCE_RATIO, COST_TOLERANCE_SLACK]).toEqual([2, 16]);
    expect(understatesCost(10, 36)).toBe(false);
    expect(understatesCost(10, 37)).toBe(true);
  });
});

describe("auditAnswer (the host's and the suite's reading of the table)", () => {
  it("accepts an honest answer", () => {
    expect(auditAnswer(query, { frames: [frame()], truncated: false }).verdict).toBe("accept");
  });

  it("K1, M1: trims frames of kinds not asked for and frames past max_frames, keeping the rest", () => {
    const frames = [frame({ id: "a" }), frame({ id: "s", kind: "snippet" }), frame({ id: "b" })];
    const audit = auditAnswer(
      { ...query, kinds: ["doc"], max_frames: 1 },
      { frames, truncated: false },
    );
    expect(audit.verdict).toBe("trim");
    expect(audit.violations.map((v) => v.rule).sort()).toEqual(["K1", "M1"]);
    expect(audit.result.frames.map((f) => f.id)).toEqual(["a"]);
    expect(audit.removed).toBe(2);
  });

  it("F1, B1, T1: drops the whole answer, even when it also breaks a trimming rule", () => {
    const cheap = frame({ content: "word ".repeat(400), token_cost: 1 });
    const audit = auditAnswer(
      { ...query, max_frames: 1 },
      { frames: [cheap, frame({ score: 1.5 })], truncated: false },
    );
    expect(audit.verdict).toBe("drop");
    expect(audit.violations.map((v) => v.rule).sort()).toEqual(["F1", "M1", "T1"]);
  });
});

describe("the provider kit", () => {
  it("guardResult fixes score, empty title and citation, an understated cost and an undeclared kind, then packs", () => {
    const warnings: string[] = [];
    const bad = frame({
      score: 1.5,
      title: "",
      citation_label: "",
      token_cost: 1,
      content: "word ".repeat(400),
    });
    const fixed = guardResult(
      { ...query, max_tokens: 1_000 },
      { frames: [bad, frame({ id: "g", kind: "graph" })], truncated: false },
      { declaredKinds: ["doc"], warn: (line) => warnings.push(line) },
    );
    expect(fixed.frames).toHaveLength(1);
    const [first] = fixed.frames;
    expect(first).toMatchObject({ score: 1, title: "f", citation_label: "f" });
    expect(first?.token_cost).toBe(countTokens(bad.content));
    expect(auditAnswer({ ...query, max_tokens: 1_000 }, fixed).verdict).toBe("accept");
    expect(warnings.join("\n")).toMatch(/F1: .*F2: .*F3: .*T1: /s);
  });

  it("guardResult packs to max_tokens and max_frames, in the provider's order, and says truncated", () => {
    const frames = [frame({ id: "a", token_cost: 60 }), frame({ id: "b", token_cost: 60 })];
    const packed = guardResult(query, { frames, truncated: false });
    expect(packed.frames.map((f) => f.id)).toEqual(["a"]);
    expect(packed).toMatchObject({ truncated: true, dropped_estimate: 1 });
    expect(packFrames(frames, { max_tokens: 500, max_frames: 1 }).frames).toHaveLength(1);
  });

  it("guardResult in refuse mode throws an internal error naming every problem, and passes a good answer as is", () => {
    const good = { frames: [frame()], truncated: false };
    expect(guardResult(query, good, { mode: "refuse" })).toBe(good);
    expect(() =>
      guardResult(query, { frames: [frame({ score: 2 })], truncated: false }, { mode: "refuse" }),
    ).toThrow(/F1: frame 0 \("f"\): score 2 set to 1/);
  });
});
