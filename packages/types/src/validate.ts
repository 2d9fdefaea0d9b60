import type { ContextFrame } from "./frame.js";
import { hasValidScore } from "./frame.js";
import type { ContextQuery, ContextQueryResult } from "./query.js";
import { totalTokenCost } from "./query.js";

/**
 * Requirement ids a violation can carry. F1-F3 and B1 are the
 * specification's; the rest are this implementation's extensions (see the
 * package README):
 *
 * - `K1` a frame of a kind the query did not ask for (kinds filtering binds);
 * - `M1` more frames than the query's `max_frames` (max_frames binds).
 */
export type RequirementId = "F1" | "F2" | "F3" | "B1" | "K1" | "M1";

/** One broken rule, with enough facts to name it exactly. */
export interface Violation {
  readonly rule: RequirementId;
  /** Index of the offending frame in the result, when one frame is at fault. */
  readonly frameIndex?: number;
  readonly frameId?: string;
  readonly field: string;
  readonly value: unknown;
  readonly message: string;
}

function at(index: number | undefined, frame: ContextFrame): string {
  return index === undefined ? `frame "${frame.id}"` : `frame ${index} ("${frame.id}")`;
}

/** F1-F3 hold for `frame`: the check {@link validateFrame} makes, without building a report. */
function frameKeepsRules(frame: ContextFrame): boolean {
  const label = frame.citation_label;
  return (
    hasValidScore(frame) &&
    frame.title.trim() !== "" &&
    label !== undefined &&
    label !== null &&
    label.trim() !== ""
  );
}

/**
 * Checks F1 (score in [0, 1]), F2 (non-empty title) and F3 (non-empty
 * citation label) on one frame, returning every violation found.
 */
export function validateFrame(frame: ContextFrame, frameIndex?: number): Violation[] {
  const where = { frameIndex, frameId: frame.id };
  const out: Violation[] = [];
  if (!hasValidScore(frame)) {
    out.push({
      rule: "F1",
      ...where,
      field: "score",
      value: frame.score,
      message: `${at(frameIndex, frame)}: score ${frame.score} is outside [0, 1]`,
    });
  }
  if (frame.title.trim() === "") {
    out.push({
      rule: "F2",
      ...where,
      field: "title",
      value: frame.title,
      message: `${at(frameIndex, frame)}: title is empty`,
    });
  }
  const label = frame.citation_label;
  if (label === undefined || label === null || label.trim() === "") {
    out.push({
      rule: "F3",
      ...where,
      field: "citation_label",
      value: label ?? null,
      message: `${at(frameIndex, frame)}: citation_label is ${label ? "blank" : "missing or empty"}`,
    });
  }
  return out;
}

/**
 * Checks every frame (F1-F3) and the result as a whole against the query:
 * B1 (declared costs within `max_tokens`) always; with the whole query, also
 * K1 (only the kinds asked for) and M1 (at most `max_frames` frames).
 */
export function validateResult(
  result: ContextQueryResult,
  query: Pick<ContextQuery, "max_tokens"> & Partial<Pick<ContextQuery, "max_frames" | "kinds">>,
): Violation[] {
  const out: Violation[] = [];
  result.frames.forEach((frame, index) => {
    if (frameKeepsRules(frame)) return;
    out.push(...validateFrame(frame, index));
  });
  const total = totalTokenCost(result);
  if (total > query.max_tokens) {
    out.push({
      rule: "B1",
      field: "token_cost",
      value: total,
      message: `declared token cost ${total} exceeds max_tokens ${query.max_tokens} across ${result.frames.length} frame${result.frames.length === 1 ? "" : "s"}`,
    });
  }
  if (query.max_frames !== undefined && result.frames.length > query.max_frames) {
    out.push({
      rule: "M1",
      field: "frames",
      value: result.frames.length,
      message: `${result.frames.length} frames returned, max_frames is ${query.max_frames}`,
    });
  }
  const kinds = query.kinds;
  if (
    kinds !== undefined &&
    kinds.length > 0 &&
    !result.frames.every((f) => kinds.includes(f.kind))
  ) {
    const asked = new Set<string>(kinds);
    result.frames.forEach((frame, index) => {
      if (!asked.has(frame.kind)) {
        out.push({
          rule: "K1",
          frameIndex: index,
          frameId: frame.id,
          field: "kind",
          value: frame.kind,
          message: `${at(index, frame)}: kind "${frame.kind}" was not asked for (${query.kinds?.join(", ")})`,
        });
      }
    });
  }
  return out;
}
