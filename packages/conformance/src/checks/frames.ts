import {
  COST_TOLERANCE_RATIO,
  COST_TOLERANCE_SLACK,
  type ContextQuery,
  type ContextQueryResult,
  totalTokenCost,
  understatesCost,
  validateFrame,
} from "@ocp/types";
import { allowedTokens } from "@ocp/types/internal";
import { countTokens, TOKENIZER } from "@ocp/types/tokens";
import { excerpt, listOf } from "../evidence.js";
import { COST_TRUTH_OVER_RATIO } from "../limits.js";
import { describeReply, type Reply } from "../probe.js";
import { type CheckResult, fail, pass, skip } from "../report.js";

/** The BPE the suite counts content with: the one shared counter of `@ocp/types/tokens`. */
export { TOKENIZER };

/** Exact o200k_base token count; special-token spellings count as text. */
export function countContentTokens(text: string): number {
  return countTokens(text);
}

/** The probe's answer, judged by frame-validity, budget-honesty and cost-truth. */
export interface ProbeVerdicts {
  readonly frameValidity: CheckResult;
  readonly budgetHonesty: CheckResult;
  readonly costTruth: CheckResult;
}

function frameName(result: ContextQueryResult, index: number): string {
  return `frame ${index} (${excerpt(result.frames[index]?.id ?? "")})`;
}

/**
 * frame-validity owns "the probe query was answered": a hang, a crash or an
 * error fails it, and the checks that need frames are skipped rather than
 * failed again for the same cause.
 */
export function judgeProbe(reply: Reply, query: ContextQuery): ProbeVerdicts {
  if (reply.kind !== "frames") {
    const why = `the probe query got no frames (${describeReply(reply)}); see frame-validity`;
    return {
      frameValidity: fail(
        "frame-validity",
        `the probe query (max_tokens ${query.max_tokens}, max_frames ${query.max_frames}) was not answered with frames: ${describeReply(reply)}`,
      ),
      budgetHonesty: skip("budget-honesty", why),
      costTruth: skip("cost-truth", why),
    };
  }
  const result = reply.result;
  return {
    frameValidity: judgeFrames(result),
    budgetHonesty: judgeBudget(result, query),
    costTruth: judgeCosts(result),
  };
}

function judgeFrames(result: ContextQueryResult): CheckResult {
  if (result.frames.length === 0) {
    return pass("frame-validity", "0 frames (permitted: nothing relevant to the probe)");
  }
  const violations = result.frames.flatMap((frame, index) => validateFrame(frame, index));
  if (violations.length > 0) {
    return fail(
      "frame-validity",
      listOf(violations.map((violation) => `${violation.rule}: ${violation.message}`)),
    );
  }
  return pass(
    "frame-validity",
    `${result.frames.length} frame(s): every score in [0, 1], every title and citation_label present`,
  );
}

function judgeBudget(result: ContextQueryResult, query: ContextQuery): CheckResult {
  const total = totalTokenCost(result);
  if (total > query.max_tokens) {
    const costs = result.frames.map(
      (frame, index) => `${frameName(result, index)}: ${frame.token_cost}`,
    );
    return fail(
      "budget-honesty",
      `B1: ${result.frames.length} frame(s) declare ${total} tokens, over max_tokens ${query.max_tokens} (${listOf(costs)})`,
    );
  }
  return pass(
    "budget-honesty",
    `${result.frames.length} frame(s) declare ${total} tokens, within max_tokens ${query.max_tokens}`,
  );
}

/**
 * cost-truth (T1): B1 checks arithmetic, not truth. Each frame's content is
 * counted with a real BPE (`TOKENIZER`); a count over the rule table's
 * one threshold (`declared × 2 + 16`, the host's too) is a lie about the cost
 * and fails.
 * Over-reporting wastes the host's budget but deceives nobody: it is reported,
 * never failed.
 */
export function judgeCosts(result: ContextQueryResult): CheckResult {
  if (result.frames.length === 0) return pass("cost-truth", "0 frames: nothing to measure");
  const under: string[] = [];
  const over: string[] = [];
  result.frames.forEach((frame, index) => {
    const counted = countContentTokens(frame.content);
    const line = `${frameName(result, index)} declares ${frame.token_cost}, its content counts ${counted} ${TOKENIZER} tokens`;
    if (understatesCost(frame.token_cost, counted)) {
      under.push(`${line} (allowed ${allowedTokens(frame.token_cost)})`);
    } else if (frame.token_cost > COST_TRUTH_OVER_RATIO * counted + 16) over.push(line);
  });
  if (under.length > 0) {
    return fail(
      "cost-truth",
      `T1: under-reports by more than ${COST_TOLERANCE_RATIO}× + ${COST_TOLERANCE_SLACK}: ${listOf(under)}`,
    );
  }
  const note = over.length > 0 ? `; over-reported (not a failure): ${listOf(over)}` : "";
  return pass(
    "cost-truth",
    `${result.frames.length} frame(s): no ${TOKENIZER} count of a frame's content exceeds ${COST_TOLERANCE_RATIO}× its declared token_cost + ${COST_TOLERANCE_SLACK}${note}`,
  );
}
