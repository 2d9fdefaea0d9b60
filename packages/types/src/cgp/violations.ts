/**
 * The one rulebook of the Context Graph Protocol for what a provider returns:
 * the provider kit self-checks with it, the host audits with it, `ocp-inspect`
 * judges with it. Each check is the SPEC requirement read literally.
 */
import { canonicalTokenCost } from "./bytes.js";
import { isCgpTimestamp, isWellFormedDigest } from "./formats.js";
import type { CgpFrameInit } from "./frame.js";

/** The requirement ids {@link cgpFrameViolations} and {@link cgpAnswerViolations} report. */
export type CgpViolationRule =
  | "F1"
  | "F2"
  | "F3"
  | "F4"
  | "F5"
  | "D1"
  | "G1"
  | "G2"
  | "P1"
  | "P2"
  | "P3"
  | "P4"
  | "B1"
  | "B3"
  | "B4";

/** One broken rule, named, with the frame at fault when one is. */
export interface Violation {
  readonly rule: CgpViolationRule;
  readonly message: string;
  readonly frameId?: string;
  /** The offending member (`score`, `provenance[0].digest`, …). */
  readonly field?: string;
}

/** A frame as decoded or as authored (defaulted lists may be absent). */
export type CgpFrameLike = CgpFrameInit;

const TEMPORAL_FIELDS = ["valid_from", "valid_to", "recorded_at"] as const;

function blank(value: string | null | undefined): boolean {
  return value === undefined || value === null || value.trim() === "";
}

function shown(value: unknown): string {
  return value === undefined ? "absent" : JSON.stringify(value);
}

/**
 * Every frame rule one frame breaks: F1 score in [0, 1]; F2 title and F3
 * citation_label non-empty; F4 timestamps in the UTC profile; F5 `file`
 * provenance digests `sha256:<64 hex>`; D1 a present `content_digest` well
 * formed; G1 relation `display_name` and G2 `target_uri` non-empty; P1–P3 the
 * members each representation carries and omits; P4 a `reference` frame costs
 * 0; B3 `token_cost` = ceil(utf8 bytes of `content` / 4) for a frame with
 * inline content. An empty list means the frame keeps every one of them.
 */
export function cgpFrameViolations(frame: CgpFrameLike): Violation[] {
  const out: Violation[] = [];
  const frameId = typeof frame.id === "string" ? frame.id : undefined;
  const at = `frame "${frameId ?? "?"}"`;
  const add = (rule: CgpViolationRule, field: string, message: string) =>
    out.push({ rule, field, frameId, message: `${at}: ${message}` });

  if (!(Number.isFinite(frame.score) && frame.score >= 0 && frame.score <= 1)) {
    add("F1", "score", `score ${frame.score} is outside [0, 1]`);
  }
  if (blank(frame.title)) add("F2", "title", "title is empty");
  if (blank(frame.citation_label)) {
    add(
      "F3",
      "citation_label",
      `citation_label is ${frame.citation_label ? "blank" : "missing or empty"}`,
    );
  }
  for (const field of TEMPORAL_FIELDS) {
    const value = frame[field];
    if (value !== undefined && value !== null && !isCgpTimestamp(value)) {
      add("F4", field, `${field} ${shown(value)} is not YYYY-MM-DDTHH:MM:SS(.f+)?Z (UTC)`);
    }
  }
  (frame.provenance ?? []).forEach((entry, index) => {
    if (entry.type === "file" && !isWellFormedDigest(entry.digest)) {
      add(
        "F5",
        `provenance[${index}].digest`,
        `file provenance digest ${shown(entry.digest ?? undefined)} is not sha256:<64 lowercase hex>`,
      );
    }
  });
  const digest = frame.content_digest;
  if (digest !== undefined && digest !== null && !isWellFormedDigest(digest)) {
    add("D1", "content_digest", `content_digest ${shown(digest)} is not sha256:<64 lowercase hex>`);
  }
  (frame.relations ?? []).forEach((relation, index) => {
    if (blank(relation.display_name)) {
      add("G1", `relations[${index}].display_name`, `relation ${index} has no display_name`);
    }
    if (blank(relation.target_uri)) {
      add("G2", `relations[${index}].target_uri`, `relation ${index} has an empty target_uri`);
    }
  });
  representationViolations(frame, add);
  if (typeof frame.content === "string") {
    const honest = canonicalTokenCost(frame.content);
    if (frame.token_cost !== honest) {
      add(
        "B3",
        "token_cost",
        `token_cost ${frame.token_cost} is not ceil(utf8 bytes / 4) = ${honest}`,
      );
    }
  }
  return out;
}

function representationViolations(
  frame: CgpFrameLike,
  add: (rule: CgpViolationRule, field: string, message: string) => void,
): void {
  const present = (key: keyof CgpFrameLike) => frame[key] !== undefined && frame[key] !== null;
  const representation = frame.representation ?? "full";
  if (representation === "full") {
    if (typeof frame.content !== "string") add("P1", "content", "a full frame carries no content");
    for (const key of ["content_ref", "transform", "canonical_content_hash"] as const) {
      if (present(key)) add("P1", key, `a full frame carries ${key}`);
    }
  } else if (representation === "compact") {
    for (const key of [
      "content",
      "content_digest",
      "canonical_content_hash",
      "transform",
      "content_ref",
    ] as const) {
      if (!present(key)) add("P2", key, `a compact frame lacks ${key}`);
    }
  } else {
    for (const key of ["content_ref", "canonical_content_hash"] as const) {
      if (!present(key)) add("P3", key, `a reference frame lacks ${key}`);
    }
    for (const key of ["content", "content_digest", "transform"] as const) {
      if (frame[key] !== undefined) add("P3", key, `a reference frame carries ${key}`);
    }
    if (frame.token_cost !== 0) {
      add(
        "P4",
        "token_cost",
        `a reference frame declares token_cost ${frame.token_cost}, not 0 (no inline bytes)`,
      );
    }
  }
}

/** The bounds of a query an answer is held to. */
export interface CgpAnswerBounds {
  readonly max_tokens: number;
  readonly max_frames: number;
}

/**
 * Every rule an answer breaks: each frame's ({@link cgpFrameViolations}),
 * then B1 (declared `token_cost` sums to at most `max_tokens`) and B4 (at
 * most `max_frames` frames). Under this family a host drops — never trims —
 * an answer with any violation.
 */
export function cgpAnswerViolations(
  query: CgpAnswerBounds,
  frames: readonly CgpFrameLike[] | { readonly frames: readonly CgpFrameLike[] },
): Violation[] {
  const list = "frames" in frames ? frames.frames : frames;
  const out = list.flatMap(cgpFrameViolations);
  let total = 0;
  for (const frame of list) total += frame.token_cost;
  if (total > query.max_tokens) {
    out.push({
      rule: "B1",
      field: "token_cost",
      message: `declared token_cost sums to ${total}, over max_tokens ${query.max_tokens}`,
    });
  }
  if (list.length > query.max_frames) {
    out.push({
      rule: "B4",
      field: "frames",
      message: `${list.length} frames returned, max_frames is ${query.max_frames}`,
    });
  }
  return out;
}

/** F4 on a query: a present `as_of` is in the UTC profile (the host's duty before sending). */
export function cgpQueryViolations(query: { readonly as_of?: string | null }): Violation[] {
  const asOf = query.as_of;
  if (asOf === undefined || asOf === null || isCgpTimestamp(asOf)) return [];
  return [
    {
      rule: "F4",
      field: "as_of",
      message: `as_of ${shown(asOf)} is not YYYY-MM-DDTHH:MM:SS(.f+)?Z (UTC)`,
    },
  ];
}
