import { allowedTokens, type ContextQuery, type ContextQueryResult, ruleOf } from "@ocp/types";
import { type Audit, auditAnswer, type CostViolation } from "@ocp/types/kit";
import { countTokens, TOKENIZER, tokenCeiling } from "@ocp/types/tokens";

/** How many frames of an answer the T1 audit settled, and how. */
export interface CostAuditFigures {
  /** Settled by the byte bound: the declared cost allows as many tokens as the content has bytes. */
  bounded: number;
  /** Counted with the shared counter (a memoized count when the content was seen lately). */
  counted: number;
}

/**
 * T1 over every frame, the BPE run only where it can change the verdict: a
 * frame whose content has no more UTF-8 bytes than its declared cost allows
 * tokens cannot understate it (every token is at least one byte); any other
 * frame is counted exactly by `countTokens`, which remembers the counts of
 * content it has seen lately. Same verdicts as counting every frame.
 */
export function costViolations(
  result: ContextQueryResult,
  figures: CostAuditFigures = { bounded: 0, counted: 0 },
): CostViolation[] {
  const out: CostViolation[] = [];
  const frames = result.frames;
  for (let index = 0; index < frames.length; index += 1) {
    const frame = frames[index]!;
    const allowed = allowedTokens(frame.token_cost);
    const content = frame.content;
    // A UTF-16 unit is 1 to 3 bytes: length bounds bytes from below, 3 x length from above.
    if (
      content.length * 3 <= allowed ||
      (content.length <= allowed && tokenCeiling(content) <= allowed)
    ) {
      figures.bounded += 1;
      continue;
    }
    figures.counted += 1;
    const measured = countTokens(content);
    if (measured > allowed) {
      out.push({
        rule: "T1",
        frameIndex: index,
        frameId: frame.id,
        field: "token_cost",
        value: frame.token_cost,
        declared: frame.token_cost,
        measured,
        message: `frame ${index} ("${frame.id}"): declares token_cost ${frame.token_cost} but its content counts ${measured} ${TOKENIZER} tokens (allowed ${allowed})`,
      });
    }
  }
  return out;
}

const T1_DROPS = ruleOf("T1").host === "drop";

/**
 * `auditAnswer` of `@ocp/types` with T1 measured by {@link costViolations}:
 * the same violations and the same verdict, without a BPE run per frame per
 * query.
 */
export function auditWithCosts(
  query: Pick<ContextQuery, "max_tokens" | "max_frames" | "kinds">,
  result: ContextQueryResult,
  measureCosts: boolean,
): Audit {
  const audit = auditAnswer(query, result, { measureCosts: false });
  if (!measureCosts) return audit;
  const costs = costViolations(result);
  if (costs.length === 0) return audit;
  const violations = [...audit.violations, ...costs];
  if (T1_DROPS || audit.verdict === "drop")
    return { verdict: "drop", violations, result, removed: 0 };
  return { ...audit, violations };
}
