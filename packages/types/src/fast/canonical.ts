import {
  type ContextQuery,
  type ContextQueryResult,
  type DecodeResult,
  decodeEnvelope,
  decodeLine,
  type Envelope,
} from "../index.js";
import { parseJsonText } from "../internal.js";
import { type Obj, plain } from "./members.js";

/**
 * A fast path beside the envelope schema, for the two messages of the hot
 * path (`query` and `frames`): a value already in the plain form the schema
 * would give back is taken as it is, without a schema pass; anything else
 * goes through the schema, so the outcome is the schema's in every case. The
 * checks are compiled from the schemas themselves (`members.ts`). `own`
 * values (just parsed from the wire) get the defaulted empty lists (`kinds`,
 * `anchors`, `provenance`, `relations`) filled in place; borrowed ones (a
 * provider's own objects) are never written to, and without those lists they
 * take the schema's path.
 */

declare const plainForm: unique symbol;

/**
 * A query result {@link isPlainResult} has vouched for: only that check
 * gives one (the brand exists in types only), so what needs the plain form
 * (`writeFramesLine`) cannot be handed an unchecked result without a cast.
 */
export type PlainResult = ContextQueryResult & { readonly [plainForm]: true };

/**
 * Whether `value` is a query result in the plain form (see the module note):
 * `strict` adds the checks of the strict schema (S1: non-empty ids, titles,
 * labels, provenance types; scores in [0, 1]).
 */
export function isPlainResult(
  value: unknown,
  options: { own?: boolean; strict?: boolean } = {},
): value is PlainResult {
  if (options.strict === true) {
    return options.own === true ? plain().ownStrictResult(value) : plain().strictResult(value);
  }
  return options.own === true ? plain().ownResult(value) : plain().result(value);
}

/**
 * For a result the lenient schema decodes (`ContextQueryResultSchema`, by its
 * own pass or the plain form's): whether the strict schema decodes it too
 * (S1: non-empty id, title, citation label, provenance type, relation `rel`
 * and `target_uri`, embedding fingerprint; score in [0, 1]). The lenient
 * output is in the strict schema's plain form exactly when the strict schema
 * accepts it, so this is the strict schema's compiled check: a rule added to
 * the strict schema is a rule here.
 */
export function meetsStrictRules(result: ContextQueryResult): boolean {
  return plain().strictResult(result);
}

/** Whether `value` is a query in the plain form; `own` fills `kinds` and `anchors` in. */
export function isPlainQuery(value: unknown, own = false): value is ContextQuery {
  return own ? plain().ownQuery(value) : plain().query(value);
}

/** A `query` or `frames` envelope in the plain form (filled in place), else undefined. */
function plainEnvelope(value: unknown): Envelope | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const type = (value as Obj).type;
  if (type === "frames") return plain().framesEnvelope(value) ? (value as Envelope) : undefined;
  if (type === "query") return plain().queryEnvelope(value) ? (value as Envelope) : undefined;
  return undefined;
}

/** `parseJsonText` of `@ocp/types`, the I-JSON scan run only when {@link membersKept} says no. */
export function parseJsonFast(text: string): ReturnType<typeof parseJsonText> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return parseJsonText(text); // the typed invalid_json error, worded in one place
  }
  if (typeof value === "object" && value !== null && !membersKept(text, value)) {
    return parseJsonText(text);
  }
  return { ok: true, value };
}

/** `decodeEnvelope` of `@ocp/types`, the schema pass skipped for a plain `query` or `frames`. */
export function decodeEnvelopeFast(value: unknown): DecodeResult {
  const plain = plainEnvelope(value);
  return plain !== undefined ? { ok: true, value: plain } : decodeEnvelope(value);
}

/**
 * `decodeLine` of `@ocp/types` with the fast path: the same values and the
 * same typed errors (I-JSON included), a schema pass only off the plain form.
 */
export function decodeLineFast(line: string): DecodeResult {
  let text = line;
  if (text.endsWith("\n")) text = text.slice(0, text.endsWith("\r\n") ? -2 : -1);
  if (text.includes("\n")) return decodeLine(line);
  const parsed = parseJsonFast(text);
  return parsed.ok ? decodeEnvelopeFast(parsed.value) : parsed;
}

/**
 * Whether JSON.parse kept every member of `text`: the members written against
 * the keys of the parsed value. Equal means no member name was repeated
 * within an object; different sends the text to the exact I-JSON scanner.
 *
 * Without a `\u` escape in the text, every colon in a parsed string was
 * written as a colon, so the colons of the text are its members (one each)
 * plus the colons of the names and strings it writes: the text counts
 * exactly as many as the parsed value's members plus the colons of its
 * strings when nothing written was dropped and no name holds a colon, and
 * more when a repeated name dropped a member (and whatever colons its value
 * held) or a name holds one (names are not searched: such a rare text goes
 * to the scanner too). The text is then scanned with indexOf for colons
 * only. With a `\u` escape, `membersScanned` counts the colons outside
 * strings.
 *
 * Says no, too, for a value nested deeper than `maxDepth` arrays and objects
 * (the outermost is 1; at most {@link MAX_WALK_DEPTH}).
 */
export function membersKept(text: string, value: unknown, maxDepth = MAX_WALK_DEPTH): boolean {
  const limit = maxDepth < MAX_WALK_DEPTH ? Math.max(0, Math.floor(maxDepth)) : MAX_WALK_DEPTH;
  if (text.indexOf("\\u") === -1) return colonsIn(text) === tally(value, limit, true);
  return membersScanned(text, value, limit);
}

/**
 * How deep the walks below go into a parsed value. JSON.parse takes text
 * nested far deeper than a call stack does; past this, {@link membersKept}
 * says no and the exact scanner (iterative) decides. No message of either
 * protocol comes near it.
 */
export const MAX_WALK_DEPTH = 256;

/**
 * The members of `value` (at any depth), plus the colons in its strings (not
 * its member names) when `colons`; NaN (which equals no count) when it nests
 * deeper than `levels`.
 */
function tally(value: unknown, levels: number, colons: boolean): number {
  if (typeof value === "string") return colons ? colonsIn(value) : 0;
  if (typeof value !== "object" || value === null) return 0;
  if (levels === 0) return Number.NaN;
  let count = 0;
  if (Array.isArray(value)) {
    for (const member of value) count += tally(member, levels - 1, colons);
    return count;
  }
  for (const key in value) {
    count += 1 + tally((value as Obj)[key], levels - 1, colons);
  }
  return count;
}

function colonsIn(text: string): number {
  let count = 0;
  for (let at = text.indexOf(":"); at !== -1; at = text.indexOf(":", at + 1)) count += 1;
  return count;
}

/**
 * The members written (the colons outside strings, one per member in valid
 * JSON) against the keys of the parsed value; strings are skipped with
 * indexOf, so the cost is in the number of strings, not their length.
 */
function membersScanned(text: string, value: unknown, levels: number): boolean {
  let written = 0;
  let colon = text.indexOf(":");
  let at = 0;
  for (;;) {
    const open = text.indexOf('"', at);
    const end = open === -1 ? text.length : open;
    while (colon !== -1 && colon < end) {
      written += 1;
      colon = text.indexOf(":", colon + 1);
    }
    if (open === -1) break;
    let close = text.indexOf('"', open + 1);
    while (close !== -1 && escaped(text, close)) close = text.indexOf('"', close + 1);
    if (close === -1) return false;
    at = close + 1;
    if (colon !== -1 && colon < at) colon = text.indexOf(":", at);
  }
  return written === tally(value, levels, false);
}

/** Whether the quote at `index` is escaped (an odd run of backslashes before it). */
function escaped(text: string, index: number): boolean {
  let run = 0;
  for (let i = index - 1; i >= 0 && text.charCodeAt(i) === 92; i -= 1) run += 1;
  return run % 2 === 1;
}
