import type { ContextQuery, ContextQueryResult } from "./query.js";
import { allowedTokens, ruleOf, understatesCost } from "./rules.js";
import { countTokens, TOKENIZER, tokenCeiling } from "./tokens.js";
import { type Violation, validateResult } from "./validate.js";

/**
 * T1 (extension): a frame whose declared `token_cost` understates the
 * `TOKENIZER` count of its content (see `COST_TOLERANCE_RATIO`).
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

/** How many frames of an answer the T1 audit settled, and how. */
export interface CostAuditFigures {
  /** Settled by the byte bound: the declared cost allows as many tokens as the content has bytes. */
  bounded: number;
  /** Counted with the shared counter (a memoized count when the content was seen lately). */
  counted: number;
}

/**
 * T1 over every frame: the frames whose declared cost understates their
 * content. The BPE runs only where it can change the verdict: a frame whose
 * content has no more UTF-8 bytes than its declared cost allows tokens
 * cannot understate it (every token is at least one byte); any other frame
 * is counted exactly by `countTokens`, which remembers the counts of content
 * it has seen lately. Same verdicts as counting every frame.
 */
export function costViolations(
  result: ContextQueryResult,
  figures: CostAuditFigures = { bounded: 0, counted: 0 },
): CostViolation[] {
  const out: CostViolation[] = [];
  result.frames.forEach((frame, index) => {
    const allowed = allowedTokens(frame.token_cost);
    const content = frame.content;
    // A UTF-16 unit is 1 to 3 bytes: length bounds bytes from below, 3 x length from above.
    if (
      content.length * 3 <= allowed ||
      (content.length <= allowed && tokenCeiling(content) <= allowed)
    ) {
      figures.bounded += 1;
      return;
    }
    figures.counted += 1;
    const measured = countTokens(content);
    if (understatesCost(frame.token_cost, measured)) {
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
  });
  return out;
}

/** Not a string, or only white space. */
export function blank(text: unknown): boolean {
  if (typeof text !== "string") return true;
  // A first character that is printable ASCII and not a space settles it without trimming a copy.
  const first = text.charCodeAt(0);
  return !(first > 0x20 && first < 0x7f) && text.trim() === "";
}

/**
 * Whether `result` keeps every rule, so that the guard leaves it as it is
 * and the audit accepts it with no violation: every frame of a kind
 * asked for and declared, with an id, a score in [0, 1], a title, a citation
 * label and a cost that does not understate its content (the byte bound
 * first, the shared counter only when it cannot settle it), and the whole
 * within `max_frames` and `max_tokens`. Allocates nothing: the answer of a
 * provider that keeps the rules costs a walk, not a copy.
 */
export function keepsEveryRule(
  query: Pick<ContextQuery, "max_tokens" | "max_frames" | "kinds">,
  result: ContextQueryResult,
  declaredKinds: readonly string[] | undefined,
): boolean {
  const frames = result.frames;
  if (frames.length > query.max_frames) return false;
  const asked = query.kinds;
  let total = 0;
  for (const frame of frames) {
    if (asked.length > 0 && !asked.includes(frame.kind)) return false;
    if (declaredKinds !== undefined && declaredKinds.length > 0) {
      if (!declaredKinds.includes(frame.kind)) return false;
    }
    if (blank(frame.id) || blank(frame.title) || blank(frame.citation_label)) return false;
    const score = frame.score;
    if (!(score >= 0 && score <= 1)) return false;
    const cost = frame.token_cost;
    if (!Number.isSafeInteger(cost) || cost < 0) return false;
    const allowed = allowedTokens(cost);
    const content = frame.content;
    if (
      content.length * 3 > allowed &&
      (content.length > allowed || tokenCeiling(content) > allowed)
    ) {
      if (understatesCost(cost, countTokens(content))) return false;
    }
    total += cost;
  }
  return total <= query.max_tokens;
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
  // The common case, allocation-free: nothing to report (stricter than the report below needs).
  if (keepsEveryRule(query, result, undefined)) {
    return { verdict: "accept", violations: [], result, removed: 0 };
  }
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
