import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ContextFrame, validateFrame, validateResult } from "../src/index.js";
import { auditAnswer, costViolations, guardResult } from "../src/kit.js";

// Results that keep or break each rule the guard repairs, near the limits:
// scores around [0, 1], blank and non-blank labels, costs honest, understated
// and at the T1 threshold, kinds asked for or not, budgets just met or missed.
const word = fc.constantFrom("retry", "budget", "héllo", "日本", "🙂", " ", "");
const content = fc.array(word, { maxLength: 200, size: "max" }).map((words) => words.join(" "));
/** Mostly `good`, now and then one of `bad`: most frames keep most rules. */
const mostly = <T>(good: fc.Arbitrary<T>, ...bad: T[]) =>
  fc.oneof({ weight: 6, arbitrary: good }, { weight: 1, arbitrary: fc.constantFrom(...bad) });
const frameArb = fc.record({
  id: mostly(fc.constantFrom("a", "b"), "", " "),
  kind: mostly(fc.constant("doc"), "snippet", "fact"),
  title: mostly(fc.constant("Title"), "", "  "),
  content,
  score: mostly(
    fc.double({ min: 0, max: 1, noNaN: true }),
    -0.01,
    1.01,
    Number.NaN,
    Number.POSITIVE_INFINITY,
  ),
  token_cost: mostly(fc.integer({ min: 0, max: 120 }), -1, 1.5),
  citation_label: mostly(fc.constant("label"), "", " "),
  provenance: fc.constant([]),
  relations: fc.constant([]),
}) as fc.Arbitrary<ContextFrame>;
const queryArb = fc.record({
  max_tokens: fc.integer({ min: 0, max: 1500 }),
  max_frames: fc.integer({ min: 0, max: 6 }),
  kinds: mostly<("doc" | "snippet" | "fact")[]>(fc.constant([]), ["doc"], ["snippet"]),
});
const declaredArb = fc.option(fc.subarray(["doc", "snippet", "fact"]), { nil: undefined });

describe("guardResult's allocation-free check", () => {
  it("passes an answer through untouched exactly when the full repair finds nothing to fix", () => {
    fc.assert(
      fc.property(
        queryArb,
        fc.array(frameArb, { maxLength: 5 }),
        declaredArb,
        (query, frames, declaredKinds) => {
          const result = { frames, truncated: false };
          const warnings: string[] = [];
          const guarded = guardResult(query, result, {
            declaredKinds,
            warn: (w) => warnings.push(w),
          });
          // Untouched: nothing warned, and the host's audit finds nothing either.
          if (guarded === result) {
            expect(warnings).toEqual([]);
            expect(auditAnswer(query, result).violations).toEqual([]);
            expect([...validateResult(result, query), ...costViolations(result)]).toEqual([]);
            for (const frame of frames) {
              expect(frame.id.trim()).not.toBe("");
              if (declaredKinds !== undefined && declaredKinds.length > 0)
                expect(declaredKinds).toContain(frame.kind);
            }
          } else {
            // Repaired: every fix is named, and the repaired answer keeps every rule.
            expect(warnings.length).toBeGreaterThan(0);
            expect(auditAnswer(query, guarded).violations).toEqual([]);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe("auditAnswer's allocation-free check", () => {
  it("reports what validateResult and the T1 count report, and accepts as given exactly when they report nothing", () => {
    let accepted = 0;
    fc.assert(
      fc.property(queryArb, fc.array(frameArb, { maxLength: 5 }), (query, frames) => {
        const result = { frames, truncated: false };
        const full = [...validateResult(result, query), ...costViolations(result)];
        const audit = auditAnswer(query, result);
        expect(audit.violations).toEqual(full);
        expect(audit.verdict === "accept").toBe(full.length === 0);
        if (audit.verdict === "accept") {
          accepted += 1;
          expect(audit.result).toBe(result);
        }
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(100);
  });
});

describe("validateResult's fast path", () => {
  it("reports for F1-F3 exactly what validateFrame reports frame by frame", () => {
    fc.assert(
      fc.property(fc.array(frameArb, { maxLength: 5 }), (frames) => {
        const result = { frames, truncated: false };
        const perFrame = frames.flatMap((frame, index) => validateFrame(frame, index));
        const f = validateResult(result, { max_tokens: 1e9 }).filter((v) => v.rule.startsWith("F"));
        expect(f).toEqual(perFrame);
      }),
      { numRuns: 2000 },
    );
  });
});
