import { messagingError } from "./errors.js";
import { isJsonObject } from "./json.js";
import { MAX_JSON_DEPTH } from "./limits.js";

/**
 * RFC 8785 JSON Canonicalization Scheme (JCS).
 *
 * - Objects: members sorted by their names compared as UTF-16 code units
 *   (§3.2.3), which is exactly how JavaScript compares strings.
 * - Strings: escaped as ECMAScript `JSON.stringify` does (§3.2.2.2); a lone
 *   surrogate has no I-JSON form and is refused.
 * - Numbers: ECMAScript `Number.prototype.toString` form (§3.2.2.3), which is
 *   what `JSON.stringify` emits; NaN and the infinities are refused.
 * - Literals `null`, `true`, `false`; no whitespace anywhere.
 *
 * Anything that is not a JSON value (undefined, functions, symbols, bigint)
 * is refused rather than silently dropped, so a signature can never cover less
 * than the caller thinks.
 */

const LONE_SURROGATE = /\p{Cs}/u;
const encoder = new TextEncoder();

/** `String.prototype.isWellFormed` where the engine has it (ES2024), else a regex. */
const wellFormed: (value: string) => boolean =
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === "function"
    ? (value) => (value as unknown as { isWellFormed(): boolean }).isWellFormed()
    : (value) => !LONE_SURROGATE.test(value);

function canonicalString(value: string): string {
  if (!wellFormed(value)) {
    throw messagingError("canonicalization_failed", "a string holds a lone surrogate (not I-JSON)");
  }
  return JSON.stringify(value);
}

function write(value: unknown, depth: number): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value)) {
        throw messagingError("canonicalization_failed", `${value} has no JSON form`);
      }
      // ECMAScript Number::toString, as JSON.stringify writes it (-0 is "0").
      return String(value);
    case "string":
      return canonicalString(value);
    case "object":
      break;
    default:
      throw messagingError("canonicalization_failed", `a ${typeof value} is not a JSON value`);
  }
  if (depth >= MAX_JSON_DEPTH) {
    throw messagingError("canonicalization_failed", `nested deeper than ${MAX_JSON_DEPTH}`);
  }
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ",";
      out += write(value[i], depth + 1);
    }
    return `${out}]`;
  }
  if (!isJsonObject(value)) return notJson(value);
  const record = value;
  const keys = Object.keys(record).sort();
  let out = "{";
  let first = true;
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    if (!first) out += ",";
    first = false;
    out += `${canonicalString(key)}:${write(member, depth + 1)}`;
  }
  return `${out}}`;
}

/** Unreachable (an object that is neither an array nor a JSON object): refused, never cast. */
function notJson(value: unknown): never {
  throw messagingError("canonicalization_failed", `a ${typeof value} is not a JSON value`);
}

/** An object member name that V8 would order numerically, before the others (an array index). */
const INDEX_LIKE = /^(?:0|[1-9][0-9]*)$/;
/** A `\uD800`–`\uDFFF` escape that `JSON.stringify` wrote for a lone surrogate (not after an escaped backslash). */
const ESCAPED_SURROGATE = /(?:^|[^\\])(?:\\\\)*\\ud[89a-f]/i;
/** Returned by {@link sortedCopy} when the fast path cannot keep JCS order. */
const SLOW = Symbol("slow");

/**
 * A copy of `value` whose objects hold their members in JCS order, for one
 * native `JSON.stringify`; validates what the slow writer validates
 * (finite numbers, JSON types, depth). {@link SLOW} when an object has an
 * index-like member name, which an engine would not keep in insertion order.
 */
function sortedCopy(value: unknown, depth: number, omit?: string): unknown {
  if (value === null) return null;
  switch (typeof value) {
    case "boolean":
    case "string":
      return value;
    case "number":
      if (!Number.isFinite(value)) {
        throw messagingError("canonicalization_failed", `${value} has no JSON form`);
      }
      return value;
    case "object":
      break;
    default:
      throw messagingError("canonicalization_failed", `a ${typeof value} is not a JSON value`);
  }
  if (depth >= MAX_JSON_DEPTH) {
    throw messagingError("canonicalization_failed", `nested deeper than ${MAX_JSON_DEPTH}`);
  }
  if (Array.isArray(value)) {
    // Copied only when a member had to be: an array already in JCS form is used as it is.
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const member = value[i];
      if (member === undefined) {
        throw messagingError("canonicalization_failed", "an undefined is not a JSON value");
      }
      const copy = sortedCopy(member, depth + 1);
      if (copy === SLOW) return SLOW;
      if (copy !== member && out === undefined) out = value.slice(0, i);
      out?.push(copy);
    }
    return out ?? value;
  }
  if (!isJsonObject(value)) return notJson(value);
  const record = value;
  const names = Object.keys(record);
  let ordered = true;
  for (let i = 1; i < names.length && ordered; i++) ordered = names[i - 1]! < names[i]!;
  const keys = ordered ? names : [...names].sort();
  // Copied only once a member differs (or the prototype is not Object's); until then nothing
  // is allocated, so an object already in JCS form costs one walk.
  let out: Record<string, unknown> | undefined =
    ordered && Object.getPrototypeOf(record) === Object.prototype ? undefined : {};
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const member = record[key];
    const first = key.charCodeAt(0);
    if (first >= 0x30 && first <= 0x39 && INDEX_LIKE.test(key)) return SLOW;
    if (member === undefined || key === omit) {
      out ??= copyMembers(record, keys, i);
      continue;
    }
    const copy = sortedCopy(member, depth + 1);
    if (copy === SLOW) return SLOW;
    if (copy !== member) out ??= copyMembers(record, keys, i);
    if (out !== undefined) setMember(out, key, copy);
  }
  return out ?? record;
}

/**
 * Sets an own member, `__proto__` included: `JSON.parse` makes a member of
 * that name an own property, and plain assignment would set the prototype
 * instead, leaving the member out of the canonical form (and the signature).
 */
function setMember(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(out, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else out[key] = value;
}

/** A new object holding the members `keys[0..end)` of `record`, as the fast path found them. */
function copyMembers(
  record: Record<string, unknown>,
  keys: readonly string[],
  end: number,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < end; i++) setMember(out, keys[i]!, record[keys[i]!]);
  return out;
}

/**
 * The RFC 8785 canonical form of a JSON value, as a string. Object members
 * whose value is `undefined` are absent (as after a JSON round trip); any
 * other non-JSON value throws `canonicalization_failed`.
 *
 * Fast path: a copy in JCS member order through one native `JSON.stringify`
 * (which writes strings and numbers exactly as JCS does), then a check that
 * no lone surrogate was escaped; objects with index-like member names take
 * the member-by-member writer.
 */
export function canonicalize(value: unknown): string {
  return canonicalText(value, undefined);
}

/**
 * The canonical form of an object without its member `omit` (what a
 * signature covers), with no intermediate copy of the object.
 */
export function canonicalizeWithout(value: object, omit: string): string {
  return canonicalText(value, omit);
}

function canonicalText(value: unknown, omit: string | undefined): string {
  const copy = sortedCopy(value, 0, omit);
  if (copy === SLOW) {
    if (omit === undefined || !isJsonObject(value)) return write(value, 0);
    const { [omit]: _omitted, ...rest } = value;
    return write(rest, 0);
  }
  const text = JSON.stringify(copy);
  if (text.includes("\\u") && ESCAPED_SURROGATE.test(text)) {
    throw messagingError("canonicalization_failed", "a string holds a lone surrogate (not I-JSON)");
  }
  return text;
}

/** The member-by-member writer: the reference the fast path is tested against. */
export function canonicalizeSlow(value: unknown): string {
  return write(value, 0);
}

/**
 * A deep copy of a JSON value with every object's members in JCS order, so
 * that its later canonicalization (signing, verifying) copies nothing. Values
 * with index-like member names are returned as they are (an engine orders
 * those itself). Throws `canonicalization_failed` as {@link canonicalize} does.
 */
export function inCanonicalOrder<T>(value: T): T {
  const copy = sortedCopy(value, 0);
  return (copy === SLOW ? value : copy) as T;
}

/** The canonical form as UTF-8 bytes: what gets signed. */
export function canonicalBytes(value: unknown): Uint8Array {
  return encoder.encode(canonicalize(value));
}
