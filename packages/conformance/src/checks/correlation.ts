import type { ContextQueryInit } from "@ocp/types";
import { excerpt, listOf } from "../evidence.js";
import { CORRELATION_PROBES } from "../limits.js";
import { classify, queryEnvelope } from "../probe.js";
import { type CheckResult, fail, pass } from "../report.js";
import type { Session } from "../session.js";

/**
 * correlation (X-CORR, advisory; only for providers that declare it):
 * {@link CORRELATION_PROBES} queries pipelined with ids each get exactly one
 * reply that echoes one of them.
 */
export async function checkCorrelation(
  session: Session,
  query: ContextQueryInit,
  timeoutMs: number,
): Promise<{ check: CheckResult; broken: boolean }> {
  const ids = Array.from(
    { length: CORRELATION_PROBES },
    (_, index) => `ocp-conformance-${index + 1}`,
  );
  for (const id of ids) session.send(queryEnvelope(query, id), `correlated query ${id}`);
  const pending = new Set(ids);
  const problems: string[] = [];
  for (let index = 0; index < ids.length; index += 1) {
    const reply = classify(await session.next(timeoutMs));
    if (reply.kind === "broken") {
      return {
        check: fail(
          "correlation",
          `X-CORR: ${index} of ${ids.length} pipelined queries answered, then ${reply.evidence}`,
        ),
        broken: true,
      };
    }
    if (reply.id === undefined) {
      problems.push(`reply ${index + 1} (${reply.kind}) carries no id`);
    } else if (!pending.has(reply.id)) {
      problems.push(
        `reply ${index + 1} (${reply.kind}) carries id ${excerpt(reply.id)}, ${ids.includes(reply.id) ? "already answered" : "which no query had"}`,
      );
    } else {
      pending.delete(reply.id);
    }
  }
  if (problems.length > 0) {
    return {
      check: fail(
        "correlation",
        `X-CORR: declares correlation but ${listOf(problems)} (sent ${ids.join(", ")})`,
      ),
      broken: false,
    };
  }
  return {
    check: pass(
      "correlation",
      `${ids.length} pipelined queries (${ids.join(", ")}) each answered once, echoing its id`,
    ),
    broken: false,
  };
}
