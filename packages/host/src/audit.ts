import {
  type ContextQuery,
  type ContextQueryResult,
  type Violation,
  validateResult,
} from "@ocp/types";
import { COST_TOLERANCE_RATIO, COST_TOLERANCE_SLACK } from "./limits.js";
import { countTokens } from "./tokens.js";

/**
 * T1 (extension): a frame whose declared `token_cost` understates the tokens
 * its title and content measure (see `COST_TOLERANCE_RATIO`).
 */
export interface CostViolation extends Omit<Violation, "rule"> {
  readonly rule: "T1";
  readonly declared: number;
  readonly measured: number;
}

/** Any rule a provider's answer can break: F1-F3, B1, K1, M1 and T1. */
export type AuditViolation = Violation | CostViolation;

export interface AuditOptions {
  /** Measure every frame against its declared cost (T1). Default true. */
  readonly measureCosts?: boolean;
}

/**
 * Audits one provider's answer against the query it was given: F1-F3 per
 * frame, B1 (declared costs within `max_tokens`), K1 (only the kinds asked
 * for), M1 (at most `max_frames`), and T1 (no declared cost understates the
 * measured content). An empty list means the answer may be trusted into a
 * prompt; anything else means all of its frames are dropped (B2).
 */
export function auditResult(
  query: ContextQuery,
  result: ContextQueryResult,
  options: AuditOptions = {},
): AuditViolation[] {
  const out: AuditViolation[] = validateResult(result, query);
  if (options.measureCosts === false) return out;
  result.frames.forEach((frame, index) => {
    const measured = countTokens(frame.title) + countTokens(frame.content);
    const allowed = frame.token_cost * COST_TOLERANCE_RATIO + COST_TOLERANCE_SLACK;
    if (measured > allowed) {
      out.push({
        rule: "T1",
        frameIndex: index,
        frameId: frame.id,
        field: "token_cost",
        value: frame.token_cost,
        declared: frame.token_cost,
        measured,
        message: `frame ${index} ("${frame.id}"): declares token_cost ${frame.token_cost} but measures ${measured} tokens (allowed ${allowed})`,
      });
    }
  });
  return out;
}

/** One loud line naming the provider and the figures of every violation. */
export function describeViolations(
  providerId: string,
  query: Pick<ContextQuery, "max_tokens" | "max_frames">,
  result: ContextQueryResult,
  violations: readonly AuditViolation[],
): string {
  const rules = [...new Set(violations.map((v) => v.rule))].join(", ");
  const declared = result.frames.reduce((sum, frame) => sum + frame.token_cost, 0);
  const head =
    `provider "${providerId}" dropped (${rules}): ${result.frames.length} ` +
    `frame${result.frames.length === 1 ? "" : "s"} declaring ` +
    `${declared} tokens for max_tokens ${query.max_tokens}, max_frames ${query.max_frames}`;
  const shown = violations.slice(0, 5).map((v) => v.message);
  if (violations.length > 5) shown.push(`… and ${violations.length - 5} more`);
  return `${head}; ${shown.join("; ")}`;
}
