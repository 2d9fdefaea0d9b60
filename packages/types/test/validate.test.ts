import { describe, expect, it } from "vitest";
import {
  type ContextFrame,
  ContextFrameSchema,
  hasValidScore,
  respectsBudget,
  respectsFrameLimit,
  totalTokenCost,
  validateFrame,
  validateResult,
} from "../src/index.js";

const frame = (over: Partial<ContextFrame> = {}): ContextFrame =>
  ContextFrameSchema.parse({
    id: "f",
    kind: "doc",
    title: "Title",
    content: "c",
    score: 0.5,
    token_cost: 10,
    citation_label: "a.md L1-2",
    ...over,
  });

describe("hasValidScore (F1)", () => {
  it("accepts the closed interval [0, 1] and nothing else", () => {
    for (const score of [0, 0.5, 1]) expect(hasValidScore({ score })).toBe(true);
    for (const score of [-0.0001, 1.0001, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(hasValidScore({ score })).toBe(false);
    }
  });
});

describe("validateFrame", () => {
  it("a sound frame has no violations", () => {
    expect(validateFrame(frame())).toEqual([]);
  });

  it("F1: names the frame index and the score", () => {
    const [violation] = validateFrame(frame({ score: 1.5 }), 3);
    expect(violation).toMatchObject({
      rule: "F1",
      frameIndex: 3,
      frameId: "f",
      field: "score",
      value: 1.5,
    });
    expect(violation?.message).toContain("frame 3");
    expect(violation?.message).toContain("1.5");
  });

  it("F2: an empty or blank title", () => {
    expect(validateFrame(frame({ title: "" })).map((v) => v.rule)).toEqual(["F2"]);
    expect(validateFrame(frame({ title: "   " })).map((v) => v.rule)).toEqual(["F2"]);
  });

  it("F3: a missing, null, empty or blank citation label", () => {
    for (const citation_label of [undefined, null, "", "  "]) {
      expect(validateFrame(frame({ citation_label })).map((v) => v.rule)).toEqual(["F3"]);
    }
  });

  it("reports every violation of a frame, not the first only", () => {
    expect(
      validateFrame(frame({ score: -1, title: "", citation_label: "" })).map((v) => v.rule),
    ).toEqual(["F1", "F2", "F3"]);
  });
});

describe("budgets (B1) and binding extensions (K1, M1)", () => {
  const result = {
    frames: [frame({ id: "a", token_cost: 100 }), frame({ id: "b", token_cost: 200 })],
    truncated: false,
  };

  it("totalTokenCost sums the declared costs; respectsBudget is inclusive", () => {
    expect(totalTokenCost(result)).toBe(300);
    expect(respectsBudget(result, 300)).toBe(true);
    expect(respectsBudget(result, 299)).toBe(false);
    expect(respectsFrameLimit(result, 2)).toBe(true);
    expect(respectsFrameLimit(result, 1)).toBe(false);
  });

  it("sums past 2^32 without wrapping", () => {
    const big = {
      frames: [frame({ token_cost: 4_294_967_295 }), frame({ token_cost: 4_294_967_295 })],
    };
    expect(totalTokenCost(big)).toBe(8_589_934_590);
    expect(respectsBudget(big, 4_294_967_295)).toBe(false);
  });

  it("B1: a result over max_tokens names the figures", () => {
    const violations = validateResult(result, { max_tokens: 250 });
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatchObject({ rule: "B1", value: 300 });
    expect(violations[0]?.message).toContain("300");
    expect(violations[0]?.message).toContain("250");
  });

  it("M1: more frames than max_frames", () => {
    expect(validateResult(result, { max_tokens: 1000, max_frames: 1 }).map((v) => v.rule)).toEqual([
      "M1",
    ]);
  });

  it("K1: a frame of a kind that was not asked for; empty kinds means any", () => {
    const mixed = {
      frames: [frame({ kind: "doc" }), frame({ kind: "symbol", id: "s" })],
      truncated: false,
    };
    const violations = validateResult(mixed, { max_tokens: 1000, kinds: ["doc"] });
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatchObject({ rule: "K1", frameIndex: 1, value: "symbol" });
    expect(validateResult(mixed, { max_tokens: 1000, kinds: [] })).toEqual([]);
  });
});
