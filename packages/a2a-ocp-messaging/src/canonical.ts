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

function canonicalString(value: string): string {
  if (LONE_SURROGATE.test(value)) {
    throw messagingError("canonicalization_failed", "a string holds a lone surrogate (not I-JSON)");
  }
  return JSON.stringify(value);
}

function write(value: unknown, depth: number, out: string[]): void {
  if (value === null) {
    out.push("null");
    return;
  }
  switch (typeof value) {
    case "boolean":
      out.push(value ? "true" : "false");
      return;
    case "number":
      if (!Number.isFinite(value)) {
        throw messagingError("canonicalization_failed", `${value} has no JSON form`);
      }
      out.push(JSON.stringify(value));
      return;
    case "string":
      out.push(canonicalString(value));
      return;
    case "object":
      break;
    default:
      throw messagingError("canonicalization_failed", `a ${typeof value} is not a JSON value`);
  }
  if (depth >= MAX_JSON_DEPTH) {
    throw messagingError("canonicalization_failed", `nested deeper than ${MAX_JSON_DEPTH}`);
  }
  if (Array.isArray(value)) {
    out.push("[");
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(",");
      write(value[i], depth + 1, out);
    }
    out.push("]");
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  out.push("{");
  let first = true;
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    if (!first) out.push(",");
    first = false;
    out.push(canonicalString(key), ":");
    write(member, depth + 1, out);
  }
  out.push("}");
}

/**
 * The RFC 8785 canonical form of a JSON value, as a string. Object members
 * whose value is `undefined` are absent (as after a JSON round trip); any
 * other non-JSON value throws `canonicalization_failed`.
 */
export function canonicalize(value: unknown): string {
  const out: string[] = [];
  write(value, 0, out);
  return out.join("");
}

/** The canonical form as UTF-8 bytes: what gets signed. */
export function canonicalBytes(value: unknown): Uint8Array {
  return new TextEncoder().encode(canonicalize(value));
}
