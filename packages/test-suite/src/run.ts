/**
 * `runCompatibility(target)`: runs every selected check against the target,
 * one after the other, each bounded by its timeout and with its own fresh
 * agents (closed afterwards), and returns the report.
 */
import type { CheckResult } from "@ocp/conformance";
import { runAgentCompatibility } from "./agent/run.js";
import { bounded } from "./bounded.js";
import { HUB_CHECKS } from "./checks/index.js";
import { CheckContext } from "./context.js";
import type { FederationTarget } from "./federation-fixture.js";
import { ANSWER_TIMEOUT_MS, CHECK_TIMEOUT_MS } from "./limits.js";
import { buildReport, type CompatibilityReport, result } from "./report.js";

/** What to test: a hub at a WebSocket URL. */
export interface HubTarget {
  /** One hub, or the hubs of one cluster: the suite's agents connect to each in turn. */
  readonly hub: string | readonly string[];
  /** The federation fixture the hub federates with: the federation checks run only with it. */
  readonly federation?: FederationTarget;
}
/** A listening agent at a WebSocket URL (§10.4 `ocp-test --agent wss://…`). */
export interface AgentTarget {
  readonly agent: string;
  /** The agent's id, when the suite cannot learn it (see the README). */
  readonly agentId?: string;
  /** The base http(s) URL of the agent's A2A endpoint, when its signed profile names none. */
  readonly agentA2a?: string;
}
/** An agent the suite starts (`OCP_HUB_URL` and `{hub}` in its arguments name the suite's hub). */
export interface AgentCommandTarget {
  readonly agentCommand: readonly string[];
  /** The base http(s) URL of the agent's A2A endpoint, when its signed profile names none. */
  readonly agentA2a?: string;
}
export type Target = HubTarget | AgentTarget | AgentCommandTarget;

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

/** Runs the compatibility suite against `target`. Never throws for a misbehaving target. */
export async function runCompatibility(
  target: Target,
  options: CompatibilityOptions = {},
): Promise<CompatibilityReport> {
  if (!("hub" in target)) return runAgentCompatibility(target, options);
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
    const context = new CheckContext(target.hub, answerTimeoutMs, target.federation);
    const verdict = await bounded(check.run(context), timeoutMs);
    context.close();
    checks.push(result(check.spec, verdict.status, verdict.evidence));
  }
  const urls = typeof target.hub === "string" ? [target.hub] : target.hub;
  return buildReport(`hub: ${urls.join(", ")}`, strict, checks);
}
