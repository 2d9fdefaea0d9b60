import { messagingError } from "./errors.js";
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
  const record = value as Record<string, unknown>;
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

/**
 * The RFC 8785 canonical form of a JSON value, as a string. Object members
 * whose value is `undefined` are absent (as after a JSON round trip); any
 * other non-JSON value throws `canonicalization_failed`.
 */
export function canonicalize(value: unknown): string {
  return write(value, 0);
}

/** The canonical form as UTF-8 bytes: what gets signed. */
export function canonicalBytes(value: unknown): Uint8Array {
  return encoder.encode(canonicalize(value));
}
