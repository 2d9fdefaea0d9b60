/**
 * Runs the agent checks: opens one session to the agent (connects to a
 * listening agent, or starts the command against the suite's hub), runs
 * each selected check with fresh testers, bounded by its timeout, and ends
 * the session (the child is killed). When the agent cannot be reached,
 * every selected check fails with the reason.
 */
import type { CheckResult } from "@ocp/conformance";
import { bounded } from "../bounded.js";
import { ANSWER_TIMEOUT_MS, CHECK_TIMEOUT_MS } from "../limits.js";
import { buildReport, type CompatibilityReport, result } from "../report.js";
import type { AgentCommandTarget, AgentTarget, CompatibilityOptions } from "../run.js";
import { AGENT_CHECKS } from "./checks.js";
import { startAgentCommand } from "./command.js";
import { AgentCheckContext } from "./context.js";
import { openListeningAgent } from "./listening.js";
import type { AgentSession } from "./session.js";

export async function runAgentCompatibility(
  target: AgentTarget | AgentCommandTarget,
  options: CompatibilityOptions,
): Promise<CompatibilityReport> {
  const strict = options.strict === true;
  const timeoutMs = options.timeoutMs ?? CHECK_TIMEOUT_MS;
  const answerTimeoutMs = Math.min(ANSWER_TIMEOUT_MS, timeoutMs);
  const name =
    "agent" in target ? `agent: ${target.agent}` : `agent-cmd: ${target.agentCommand.join(" ")}`;
  const selected = AGENT_CHECKS.filter(
    (check) => options.only === undefined || options.only.includes(check.spec.name),
  );
  let session: AgentSession | undefined;
  let unreachable: string | undefined;
  try {
    session =
      "agent" in target
        ? await openListeningAgent(target.agent, answerTimeoutMs, target.agentId)
        : await startAgentCommand(target.agentCommand);
    if (target.agentA2a !== undefined) session = { ...session, a2aUrl: target.agentA2a };
  } catch (error) {
    unreachable = `the agent could not be reached: ${(error as Error).message}`;
  }
  const checks: CheckResult[] = [];
  try {
    for (const check of selected) {
      if (options.skip?.includes(check.spec.name)) {
        checks.push(result(check.spec, "skipped", "skipped on request (--skip)"));
        continue;
      }
      if (session === undefined) {
        checks.push(result(check.spec, "fail", unreachable ?? "the agent could not be reached"));
        continue;
      }
      const context = new AgentCheckContext(session, answerTimeoutMs);
      const verdict = await bounded(check.run(context), timeoutMs);
      context.close();
      const evidence =
        verdict.status === "fail"
          ? `${verdict.evidence}${session.diagnostics()}`
          : verdict.evidence;
      checks.push(result(check.spec, verdict.status, evidence));
    }
  } finally {
    await session?.close();
  }
  return buildReport(name, strict, checks, "agent");
}
