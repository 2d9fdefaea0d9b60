/**
 * `runCompatibility(target)`: runs every selected check against the target,
 * one after the other, each bounded by its timeout and with its own fresh
 * agents (closed afterwards), and returns the report.
 */
import type { CheckResult } from "@ocp/conformance";
import { HUB_CHECKS } from "./checks/index.js";
import { CheckContext, type Verdict } from "./context.js";
import { ANSWER_TIMEOUT_MS, CHECK_TIMEOUT_MS } from "./limits.js";
import { buildReport, type CompatibilityReport, result } from "./report.js";

/** What to test: a hub at a WebSocket URL. */
export interface HubTarget {
  readonly hub: string;
}
export type Target = HubTarget;

export interface CompatibilityOptions {
  /** Advisory checks decide the verdict too. */
  readonly strict?: boolean;
  /** Bound on one whole check (default {@link CHECK_TIMEOUT_MS}). */
  readonly timeoutMs?: number;
  /** Run only these checks (by name). */
  readonly only?: readonly string[];
  /** Skip these checks (reported as skipped). */
  readonly skip?: readonly string[];
}

function bounded(promise: Promise<Verdict>, ms: number): Promise<Verdict> {
  return new Promise<Verdict>((resolve) => {
    const timer = setTimeout(
      () => resolve({ status: "fail", evidence: `the check did not finish within ${ms} ms` }),
      ms,
    );
    promise.then(
      (verdict) => {
        clearTimeout(timer);
        resolve(verdict);
      },
      (error: unknown) => {
        clearTimeout(timer);
        resolve({
          status: "fail",
          evidence: error instanceof Error ? error.message : String(error),
        });
      },
    );
  });
}

/** Runs the compatibility suite against `target`. Never throws for a misbehaving target. */
export async function runCompatibility(
  target: Target,
  options: CompatibilityOptions = {},
): Promise<CompatibilityReport> {
  const strict = options.strict === true;
  const timeoutMs = options.timeoutMs ?? CHECK_TIMEOUT_MS;
  const answerTimeoutMs = Math.min(ANSWER_TIMEOUT_MS, timeoutMs);
  const checks: CheckResult[] = [];
  for (const check of HUB_CHECKS) {
    const { name } = check.spec;
    if (options.only !== undefined && !options.only.includes(name)) continue;
    if (options.skip?.includes(name)) {
      checks.push(result(check.spec, "skipped", "skipped on request (--skip)"));
      continue;
    }
    const context = new CheckContext(target.hub, answerTimeoutMs);
    const verdict = await bounded(check.run(context), timeoutMs);
    context.close();
    checks.push(result(check.spec, verdict.status, verdict.evidence));
  }
  return buildReport(`hub: ${target.hub}`, strict, checks);
}
