import type { ContextQuery, ContextQueryResult } from "./query.js";
import { allowedTokens, ruleOf, understatesCost } from "./rules.js";
import { countTokens, TOKENIZER } from "./tokens.js";
import { type Violation, validateResult } from "./validate.js";

/**
 * T1 (extension): a frame whose declared `token_cost` understates the
 * {@link TOKENIZER} count of its content (see `COST_TOLERANCE_RATIO`).
 */
export interface CostViolation extends Omit<Violation, "rule"> {
  readonly rule: "T1";
  readonly declared: number;
  readonly measured: number;
}

/** Any rule an answer can break: F1-F3, B1, K1, M1 and T1. */
export type AuditViolation = Violation | CostViolation;

/**
 * What the rule table says to do with an answer: `accept` it, `trim` it
 * (frames of kinds not asked for and frames past `max_frames` removed), or
 * `drop` it whole (B2).
 */
export type AuditVerdict = "accept" | "trim" | "drop";

export interface Audit {
  readonly verdict: AuditVerdict;
  readonly violations: readonly AuditViolation[];
  /** The answer to use: as given (accept), trimmed (trim), or as given (drop: use none of it). */
  readonly result: ContextQueryResult;
  /** Frames the trim removed. */
  readonly removed: number;
}

export interface AuditOptions {
  /** Count every frame's content against its declared cost (T1). Default true. */
  readonly measureCosts?: boolean;
}

/** T1 over every frame: the frames whose declared cost understates their content. */
export function costViolations(result: ContextQueryResult): CostViolation[] {
  const out: CostViolation[] = [];
  result.frames.forEach((frame, index) => {
    const measured = countTokens(frame.content);
    if (understatesCost(frame.token_cost, measured)) {
      out.push({
        rule: "T1",
        frameIndex: index,
        frameId: frame.id,
        field: "token_cost",
        value: frame.token_cost,
        declared: frame.token_cost,
        measured,
        message: `frame ${index} ("${frame.id}"): declares token_cost ${frame.token_cost} but its content counts ${measured} ${TOKENIZER} tokens (allowed ${allowedTokens(frame.token_cost)})`,
      });
    }
  });
  return out;
}

/**
 * Audits one answer against the query it was given, by the rule table: F1-F3,
 * B1 and T1 drop it; K1 and M1 only trim it. The host uses the verdict; the
 * suite fails (or advises on) exactly the same rules.
 */
export function auditAnswer(
  query: Pick<ContextQuery, "max_tokens" | "max_frames" | "kinds">,
  result: ContextQueryResult,
  options: AuditOptions = {},
): Audit {
  const violations: AuditViolation[] = validateResult(result, query);
  if (options.measureCosts !== false) violations.push(...costViolations(result));
  if (violations.length === 0) return { verdict: "accept", violations, result, removed: 0 };
  if (violations.some((violation) => ruleOf(violation.rule).host === "drop")) {
    return { verdict: "drop", violations, result, removed: 0 };
  }
  const asked = new Set<string>(query.kinds);
  const kept = result.frames
    .filter((frame) => asked.size === 0 || asked.has(frame.kind))
    .slice(0, query.max_frames);
  const removed = result.frames.length - kept.length;
  return {
    verdict: "trim",
    violations,
    removed,
    result: {
      ...result,
      frames: kept,
      truncated: true,
      dropped_estimate: (result.dropped_estimate ?? 0) + removed,
    },
  };
}
