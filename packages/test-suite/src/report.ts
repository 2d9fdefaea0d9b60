import { type CheckResult, type CheckStatus, isConformant } from "@ocp/conformance";

/** One check of the suite: its name, the spec sections it verifies, whether it decides the verdict. */
export interface CompatibilityCheckSpec {
  readonly name: string;
  /** Sections of the a2a+ocp specification (`§8.3`), or RFCs. */
  readonly sections: readonly string[];
  /** Advisory checks fail a run only under `strict` (SHOULDs, and features a target may lack). */
  readonly advisory: boolean;
  /** One line: what the check proves. */
  readonly summary: string;
}

/** The result of a run against one target, in the shape of `@ocp/conformance`'s reports. */
export interface CompatibilityReport {
  /** One line naming the target: `hub: ws://…`, `agent: ws://…`, `agent-cmd: …`. */
  readonly target: string;
  readonly kind: "hub" | "agent";
  readonly strict: boolean;
  readonly checks: readonly CheckResult[];
  /** No deciding check failed (and, under `strict`, no advisory one either). */
  readonly conformant: boolean;
}

export type { CheckResult, CheckStatus };

/** A check's result from its spec. */
export function result(
  spec: CompatibilityCheckSpec,
  status: CheckStatus,
  evidence: string,
): CheckResult {
  return {
    name: spec.name,
    status,
    evidence,
    requirements: spec.sections,
    advisory: spec.advisory,
  };
}

/** Builds the report of a run. */
export function buildReport(
  target: string,
  strict: boolean,
  checks: readonly CheckResult[],
  kind: "hub" | "agent" = "hub",
): CompatibilityReport {
  return { target, kind, strict, checks, conformant: isConformant(checks, strict) };
}
