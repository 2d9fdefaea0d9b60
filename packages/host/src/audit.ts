import type { ContextQuery, ContextQueryResult } from "@ocp/types";
import {
  type Audit,
  type AuditOptions,
  type AuditViolation,
  auditAnswer,
  type CostViolation,
} from "@ocp/types/kit";

export type { Audit, AuditOptions, AuditViolation, CostViolation };
export { auditAnswer };

/**
 * Every rule one provider's answer breaks against the query it was given:
 * F1-F3, B1, K1, M1 and T1 (see {@link auditAnswer} for what the host does
 * about each, by the rule table of `@ocp/types`).
 */
export function auditResult(
  query: ContextQuery,
  result: ContextQueryResult,
  options: AuditOptions = {},
): AuditViolation[] {
  return [...auditAnswer(query, result, options).violations];
}

/** One loud line naming the provider, what the host did, and the figures of every violation. */
export function describeViolations(
  providerId: string,
  query: Pick<ContextQuery, "max_tokens" | "max_frames">,
  result: ContextQueryResult,
  violations: readonly AuditViolation[],
  action: "dropped" | "trimmed" = "dropped",
): string {
  const rules = [...new Set(violations.map((v) => v.rule))].join(", ");
  const declared = result.frames.reduce((sum, frame) => sum + frame.token_cost, 0);
  const head =
    `provider "${providerId}" ${action} (${rules}): ${result.frames.length} ` +
    `frame${result.frames.length === 1 ? "" : "s"} declaring ` +
    `${declared} tokens for max_tokens ${query.max_tokens}, max_frames ${query.max_frames}`;
  const shown = violations.slice(0, 5).map((v) => v.message);
  if (violations.length > 5) shown.push(`… and ${violations.length - 5} more`);
  return `${head}; ${shown.join("; ")}`;
}
