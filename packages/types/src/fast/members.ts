/**
 * The members of the objects the fast path reads (`query`, `frames`, a frame
 * and what it holds), as Sets and, for the three that every message of the
 * hot path holds, as switches.
 */

export const QUERY_KEYS: ReadonlySet<string> = new Set([
  "goal",
  "query_text",
  "embedding",
  "kinds",
  "anchors",
  "max_frames",
  "max_tokens",
  "as_of",
]);
export const RESULT_KEYS: ReadonlySet<string> = new Set([
  "frames",
  "truncated",
  "dropped_estimate",
]);
/** A frame's scalar members in the reference's declaration order (the wire writes them so). */
export const FRAME_SCALARS = [
  "id",
  "kind",
  "title",
  "content",
  "uri",
  "score",
  "token_cost",
  "valid_from",
  "valid_to",
  "recorded_at",
] as const;
export const PROVENANCE_MEMBERS = ["type", "uri", "range", "digest", "method", "by"] as const;
export const RELATION_MEMBERS = ["rel", "target_uri", "display_name"] as const;
export const EMBEDDING_MEMBERS = ["fingerprint", "vector"] as const;
export const FRAME_KEYS: ReadonlySet<string> = new Set([
  ...FRAME_SCALARS,
  "provenance",
  "citation_label",
  "embedding",
  "relations",
]);
export const PROVENANCE_KEYS: ReadonlySet<string> = new Set(PROVENANCE_MEMBERS);
export const RELATION_KEYS: ReadonlySet<string> = new Set(RELATION_MEMBERS);
export const EMBEDDING_KEYS: ReadonlySet<string> = new Set(EMBEDDING_MEMBERS);
export const ENVELOPE_KEYS: ReadonlySet<string> = new Set(["type", "id", "query", "result"]);

export type Obj = Record<string, unknown>;

export function isPlain(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Every own key of `value` is one of `keys`. */
export function onlyKeys(value: Obj, keys: ReadonlySet<string>): boolean {
  for (const key in value) if (!keys.has(key)) return false;
  return true;
}

// The members of the three objects every message of the hot path holds, as switches: a
// switch on a parsed (interned) name costs less than half a Set lookup, and these run for
// every member of every message. The test suite checks them against the Sets above.

/** Every own key of `value` is a member of a frame ({@link FRAME_KEYS}). */
export function onlyFrameKeys(value: Obj): boolean {
  for (const key in value) {
    switch (key) {
      case "id":
      case "kind":
      case "title":
      case "content":
      case "uri":
      case "score":
      case "token_cost":
      case "valid_from":
      case "valid_to":
      case "recorded_at":
      case "provenance":
      case "citation_label":
      case "embedding":
      case "relations":
        continue;
      default:
        return false;
    }
  }
  return true;
}

/** Every own key of `value` is a member of a query result ({@link RESULT_KEYS}). */
export function onlyResultKeys(value: Obj): boolean {
  for (const key in value) {
    if (key !== "frames" && key !== "truncated" && key !== "dropped_estimate") return false;
  }
  return true;
}

/** Every own key of `value` is a member of a `query` or `frames` envelope ({@link ENVELOPE_KEYS}). */
export function onlyEnvelopeKeys(value: Obj): boolean {
  for (const key in value) {
    if (key !== "type" && key !== "id" && key !== "query" && key !== "result") return false;
  }
  return true;
}

/** The member lists the switches above must agree with (for the test suite). */
export const HOT_MEMBERS = {
  frame: { keys: FRAME_KEYS, only: onlyFrameKeys },
  result: { keys: RESULT_KEYS, only: onlyResultKeys },
  envelope: { keys: ENVELOPE_KEYS, only: onlyEnvelopeKeys },
} as const;
