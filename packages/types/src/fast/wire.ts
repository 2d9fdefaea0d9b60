import type { ContextFrame, ContextQuery, ContextQueryResult } from "../index.js";
import { isPlainQuery, isPlainResult, type PlainResult } from "./canonical.js";
import {
  EMBEDDING_MEMBERS as EMBEDDING_ORDER,
  FRAME_SCALARS as FRAME_ORDER,
  type Obj,
  PROVENANCE_MEMBERS as PROVENANCE_ORDER,
  RELATION_MEMBERS as RELATION_ORDER,
} from "./members.js";

/**
 * The members of `from` named in `order` that are present, written as JSON
 * object members in that order (no braces): what JSON.stringify of an
 * object holding just those members in that order writes between its braces,
 * without building that object.
 */
function members(from: Obj, order: readonly string[]): string {
  let out = "";
  for (const key of order) {
    const value = from[key];
    if (value === undefined) continue;
    out += `${out === "" ? "" : ","}"${key}":${JSON.stringify(value)}`;
  }
  return out;
}

function objects(list: readonly unknown[], order: readonly string[]): string {
  let out = "";
  for (const entry of list) out += `${out === "" ? "{" : ",{"}${members(entry as Obj, order)}}`;
  return out;
}

/** One frame as the reference writes it: declaration order, absent and empty lists left off. */
function wireFrame(frame: ContextFrame): string {
  let out = `{${members(frame as unknown as Obj, FRAME_ORDER)}`;
  if (frame.provenance.length > 0)
    out += `,"provenance":[${objects(frame.provenance, PROVENANCE_ORDER)}]`;
  if (frame.citation_label !== undefined)
    out += `,"citation_label":${JSON.stringify(frame.citation_label)}`;
  if (frame.embedding !== undefined) {
    out += `,"embedding":{${members(frame.embedding as unknown as Obj, EMBEDDING_ORDER)}}`;
  }
  if (frame.relations.length > 0)
    out += `,"relations":[${objects(frame.relations, RELATION_ORDER)}]`;
  return `${out}}`;
}

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
  let out =
    id === undefined
      ? '{"type":"frames","result":{"frames":['
      : `{"type":"frames","id":${JSON.stringify(id)},"result":{"frames":[`;
  const frames = result.frames;
  for (let i = 0; i < frames.length; i += 1) out += (i === 0 ? "" : ",") + wireFrame(frames[i]!);
  out += `],"truncated":${result.truncated}`;
  if (result.dropped_estimate !== undefined)
    out += `,"dropped_estimate":${result.dropped_estimate}`;
  return `${out}}}\n`;
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
  // Built member by member: an object spread costs microseconds on a path this hot.
  const copy: { -readonly [K in keyof ContextQuery]: ContextQuery[K] } = {
    goal: query.goal,
    kinds: frozenCopy(query.kinds) as ContextQuery["kinds"],
    anchors: frozenCopy(query.anchors) as ContextQuery["anchors"],
    max_frames: query.max_frames,
    max_tokens: query.max_tokens,
  };
  if (query.query_text !== undefined) copy.query_text = query.query_text;
  if (query.embedding != null) {
    copy.embedding = Object.freeze(query.embedding.slice()) as ContextQuery["embedding"];
  }
  if (query.as_of !== undefined) copy.as_of = query.as_of;
  const sealed = Object.freeze(copy);
  lastSealed = sealed;
  lastJson = "";
  return sealed;
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

/**
 * Written member by member, each value by JSON.stringify, rather than building
 * the wire object and stringifying it: with its check, 1.0 µs per query
 * instead of 2.2 in a micro-benchmark. The counts are u32 (plain form), which
 * print as JSON does.
 */
function writeQuery(query: ContextQuery): string {
  let out = `{"goal":${JSON.stringify(query.goal)}`;
  if (query.query_text !== undefined) out += `,"query_text":${JSON.stringify(query.query_text)}`;
  if (query.embedding !== undefined) out += `,"embedding":${JSON.stringify(query.embedding)}`;
  if (query.kinds.length > 0) out += `,"kinds":${JSON.stringify(query.kinds)}`;
  if (query.anchors.length > 0) out += `,"anchors":${JSON.stringify(query.anchors)}`;
  out += `,"max_frames":${query.max_frames},"max_tokens":${query.max_tokens}`;
  if (query.as_of !== undefined) out += `,"as_of":${JSON.stringify(query.as_of)}`;
  return `${out}}`;
}
