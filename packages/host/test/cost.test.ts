import { type ContextQueryResult, understatesCost } from "@ocp/types";
import { allowedTokens } from "@ocp/types/internal";
import { type CostAuditFigures, type CostViolation, costViolations } from "@ocp/types/kit";
import { countTokens, TOKENIZER, tokenCeiling } from "@ocp/types/tokens";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Host } from "../src/index.js";
import { fakeProvider, frame, QUERY } from "./helpers.js";

const result = (frames: ReturnType<typeof frame>[]): ContextQueryResult => ({
  frames,
  truncated: false,
});

// Text of every kind the BPE meets: ASCII words, accents, CJK, emoji (surrogate
// pairs), lone surrogates, control characters and special-token spellings.
const content = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.string({ unit: "binary", maxLength: 200 }),
  fc
    .array(
      fc.constantFrom("word ", "été ", "日本語", "🙂", "\ud800", "<|endoftext|>", "\n\t", "0123"),
      {
        maxLength: 120,
      },
    )
    .map((parts) => parts.join("")),
);

/** T1 the plain way, every frame counted: what the bounded audit must agree with. */
function countEveryFrame(answer: ContextQueryResult): CostViolation[] {
  return answer.frames.flatMap((f, index) => {
    const measured = countTokens(f.content);
    if (!understatesCost(f.token_cost, measured)) return [];
    const allowed = allowedTokens(f.token_cost);
    return [
      {
        rule: "T1" as const,
        frameIndex: index,
        frameId: f.id,
        field: "token_cost",
        value: f.token_cost,
        declared: f.token_cost,
        measured,
        message: `frame ${index} ("${f.id}"): declares token_cost ${f.token_cost} but its content counts ${measured} ${TOKENIZER} tokens (allowed ${allowed})`,
      },
    ];
  });
}

describe("T1 without a BPE run per frame per query", () => {
  it("gives the verdicts of counting every frame, for any content and declared cost", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ content, token_cost: fc.integer({ min: 0, max: 400 }) }), {
          maxLength: 4,
        }),
        (specs) => {
          const answer = result(specs.map((spec, i) => frame({ id: `f${i}`, ...spec })));
          expect(costViolations(answer)).toEqual(countEveryFrame(answer));
        },
      ),
      { numRuns: 400, seed: 18 },
    );
  });

  it("settles a frame whose declared cost covers every byte of its content without counting it", () => {
    const figures: CostAuditFigures = { bounded: 0, counted: 0 };
    const generous = frame({ id: "g", content: "héllo wörld", token_cost: 10 });
    const tight = frame({ id: "t", content: "a".repeat(200), token_cost: 5 });
    expect(costViolations(result([generous, tight]), figures)).toEqual([]);
    expect(figures).toEqual({ bounded: 1, counted: 1 });
    // 200 'a' count far fewer tokens than bytes: the bound cannot settle it, the count can.
    expect(countTokens(tight.content)).toBeLessThanOrEqual(allowedTokens(5));
  });

  it("the byte ceiling never undercounts", () => {
    fc.assert(
      fc.property(content, (text) => {
        expect(tokenCeiling(text)).toBeGreaterThanOrEqual(countTokens(text));
        expect(tokenCeiling(text)).toBeLessThanOrEqual(text.length * 3);
      }),
      { numRuns: 400, seed: 18 },
    );
  });

  it("catches a lying provider on every query, the content's count remembered or not", async () => {
    const lie = "lorem ipsum dolor ".repeat(300); // long enough to be remembered
    const host = new Host({ warn: () => undefined });
    host.add(
      fakeProvider({
        id: "liar",
        answer: async () => result([frame({ id: "big", token_cost: 20, content: lie })]),
      }),
    );
    host.add(fakeProvider({ id: "honest" }));
    for (let round = 0; round < 3; round += 1) {
      const fanOut = await host.queryAll({ ...QUERY, max_tokens: 5_000 });
      expect(fanOut.liars.map((liar) => liar.providerId)).toEqual(["liar"]);
      const violation = fanOut.liars[0]!.violations[0]!;
      expect(violation).toMatchObject({ rule: "T1", declared: 20, measured: countTokens(lie) });
      expect(fanOut.accepted.every((accepted) => accepted.providerId === "honest")).toBe(true);
    }
    // An honest provider sending the same content with its true cost is accepted.
    host.add(
      fakeProvider({
        id: "truthful",
        answer: async () =>
          result([frame({ id: "big", token_cost: countTokens(lie), content: lie })]),
      }),
    );
    const fanOut = await host.queryAll({ ...QUERY, max_tokens: 5_000 });
    expect(fanOut.liars.map((liar) => liar.providerId)).toEqual(["liar"]);
    expect(fanOut.accepted.some((accepted) => accepted.providerId === "truthful")).toBe(true);
    await host.shutdown();
  });
});
