import { type ContextQuery, ContextQuerySchema } from "@ocp/types";

/** The members of a query {@link resealed} compares and {@link filledQuery} copies, in the schema's order. */
export const COMPARED_MEMBERS = [
  "goal",
  "query_text",
  "embedding",
  "kinds",
  "anchors",
  "max_frames",
  "max_tokens",
  "as_of",
] as const;

/**
 * Whether the schema declares exactly {@link COMPARED_MEMBERS}: a member
 * added to it and not named here turns both shortcuts off rather than let a
 * query that differs in it pass for the last one, or lose it in the copy.
 */
const NAMES_EVERY_MEMBER = Object.keys(ContextQuerySchema.shape).join() === COMPARED_MEMBERS.join();

/**
 * The query `parseQuery` sealed last (frozen, its lists frozen too), shared by
 * every host of this process: nothing can change it. One slot, like the
 * encoder's: a caller that asks the same question again and again (a
 * polling agent, a benchmark) gets the same sealed query back instead of a
 * fresh copy, and the transports' encoder, which remembers the JSON of the
 * latest sealed query, does not write it again.
 */
let lastSealed: ContextQuery | undefined;

/** What the schema fills in for an absent `kinds` or `anchors` (its default). */
const NONE: readonly never[] = [];

/**
 * The last sealed query when `query` holds the same value in every member
 * the schema declares (scalars by `Object.is`, lists element by element; an
 * absent `kinds` or `anchors` is the empty list the schema fills in), else
 * undefined. Such a query seals (or parses) to a query equal to it, so
 * handing back the frozen one changes nothing but the copy.
 */
export function resealed(query: unknown): ContextQuery | undefined {
  const last = lastSealed;
  if (last === undefined || typeof query !== "object" || query === null) return undefined;
  if (!NAMES_EVERY_MEMBER) return undefined;
  // Member by member, by name (a loop over the names would read each through a generic lookup).
  const given = query as Partial<Record<keyof ContextQuery, unknown>>;
  return Object.is(given.goal, last.goal) &&
    Object.is(given.query_text, last.query_text) &&
    Object.is(given.max_frames, last.max_frames) &&
    Object.is(given.max_tokens, last.max_tokens) &&
    Object.is(given.as_of, last.as_of) &&
    sameList(given.kinds ?? NONE, last.kinds) &&
    sameList(given.anchors ?? NONE, last.anchors) &&
    sameList(given.embedding, last.embedding)
    ? last
    : undefined;
}

/** The same value, or two lists of the same length holding the same values in order. */
function sameList(given: unknown, kept: readonly unknown[] | null | undefined): boolean {
  if (Object.is(given, kept)) return true;
  if (!Array.isArray(given) || !Array.isArray(kept) || given.length !== kept.length) return false;
  for (let i = 0; i < given.length; i += 1) {
    if (!Object.is(given[i], kept[i])) return false;
  }
  return true;
}

/** Remembers `sealed` (frozen) as the last sealed query; returns it. */
export function remember(sealed: ContextQuery): ContextQuery {
  lastSealed = sealed;
  return sealed;
}

/**
 * The schema's members of `query` alone, an absent `kinds` or `anchors`
 * filled with the empty list the schema defaults it to: what the schema
 * would make of a query that only leaves lists out or carries members it
 * does not declare (it strips those), for `sealQuery` to check and copy
 * without the schema pass. Undefined for anything but an object.
 */
export function filledQuery(query: unknown): ContextQuery | undefined {
  if (!NAMES_EVERY_MEMBER || typeof query !== "object" || query === null) return undefined;
  if (Array.isArray(query)) return undefined;
  const given = query as Partial<Record<keyof ContextQuery, unknown>>;
  return {
    goal: given.goal,
    query_text: given.query_text,
    embedding: given.embedding,
    kinds: given.kinds ?? [],
    anchors: given.anchors ?? [],
    max_frames: given.max_frames,
    max_tokens: given.max_tokens,
    as_of: given.as_of,
  } as ContextQuery;
}
