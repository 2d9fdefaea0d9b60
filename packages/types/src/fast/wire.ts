import { encodeLine, toWire } from "../codec.js";
import type { ContextQuery, ContextQueryResult } from "../index.js";
import { isPlainQuery, isPlainResult, type PlainResult } from "./canonical.js";
import { type Obj, QUERY_MEMBERS, write } from "./members.js";

/**
 * The `frames` reply line `encodeLine` of `@ocp/types` writes, byte for byte,
 * without its schema pass and without copying the frames, for a result in
 * the plain form (see `isPlainResult`); undefined for any other result, which
 * the caller encodes with `encodeLine`.
 */
export function encodeFramesLine(
  id: string | undefined,
  result: ContextQueryResult,
): string | undefined {
  return isPlainResult(result) ? writeFramesLine(id, result) : undefined;
}

/**
 * {@link encodeFramesLine} without its check, for a result `isPlainResult`
 * has just vouched for (its type says so; and nothing has written to it
 * since): the caller that checked does not pay for a second walk.
 */
export function writeFramesLine(id: string | undefined, result: PlainResult): string {
  const envelope = { type: "frames", id, result };
  const writer = write().framesEnvelope;
  return writer === undefined
    ? encodeLine(envelope as Parameters<typeof encodeLine>[0])
    : `${writer(envelope)}\n`;
}

/**
 * The `query` envelope `encodeJson` writes (an HTTP body), around a query's
 * JSON already encoded (by {@link encodeQueryJson} or `toWire`): `type`,
 * `id` when correlated, then `query`, in the order the envelope schema
 * declares them.
 */
export function writeQueryJson(id: string | undefined, queryJson: string): string {
  const writer = write().queryEnvelope;
  if (writer !== undefined) {
    return writer({ type: "query", id, query: queryJson });
  }
  return JSON.stringify(
    toWire({ type: "query", id, query: JSON.parse(queryJson) as ContextQuery }),
  );
}

/** {@link writeQueryJson} as the NDJSON line `encodeLine` writes. */
export function writeQueryLine(id: string | undefined, queryJson: string): string {
  return `${writeQueryJson(id, queryJson)}\n`;
}

/**
 * The query {@link sealQuery} made last, and its JSON once encoded ("" until
 * then): the legs of a fan-out encode the same, latest query one after the
 * other. One slot and no WeakMap: a WeakMap entry per query cost more than
 * the check it saved.
 */
let lastSealed: ContextQuery | undefined;
let lastJson = "";

/** The one frozen empty list every sealed query with an empty `kinds` or `anchors` holds. */
const NONE: readonly never[] = Object.freeze([]);

/** A frozen copy of `list`; an empty list is {@link NONE} (no copy, no freeze: the usual anchors). */
function frozenCopy<T>(list: readonly T[]): readonly T[] {
  return list.length === 0 ? NONE : Object.freeze(list.slice());
}

/**
 * A frozen copy of `query` when it is in the plain form (lists copied and
 * frozen too), else undefined. Nothing can change a sealed query, so
 * {@link encodeQueryJson} encodes the latest one without checking it again,
 * and only once however many providers it is sent to in a row. The host
 * seals every query before any provider sees it.
 */
export function sealQuery(query: unknown): ContextQuery | undefined {
  if (!isPlainQuery(query)) return undefined;
  const copier = write().copyQuery;
  const copy = copier === undefined ? copyMembers(query) : copier(query, frozenCopy);
  const sealed = Object.freeze(copy) as ContextQuery;
  lastSealed = sealed;
  lastJson = "";
  return sealed;
}

/** What the compiled copier does, where code cannot be compiled. */
function copyMembers(query: ContextQuery): Obj {
  const copy: Obj = {};
  for (const key of QUERY_MEMBERS) {
    const value = (query as Obj)[key];
    if (value !== undefined) copy[key] = Array.isArray(value) ? frozenCopy(value) : value;
  }
  return copy;
}

/**
 * The JSON of a query as `toWire` of `@ocp/types` writes it (declaration
 * order, absent members and empty `kinds`, `anchors` left off), without its
 * schema pass, for a query in the plain form; undefined for any other.
 */
export function encodeQueryJson(query: ContextQuery): string | undefined {
  if (query === lastSealed) {
    if (lastJson === "") lastJson = writeQuery(query);
    return lastJson;
  }
  return isPlainQuery(query) ? writeQuery(query) : undefined;
}

/** The query's JSON by its compiled writer, or `toWire` where none could be compiled. */
function writeQuery(query: ContextQuery): string {
  const writer = write().query;
  return writer === undefined
    ? JSON.stringify(toWire({ type: "query", query }).query)
    : writer(query);
}
