/**
 * The JSON Canonicalization Scheme (RFC 8785) that upstream's normalization
 * vectors pin: members sorted by their names' UTF-16 code units, no
 * whitespace, numbers and strings as ECMAScript's JSON serialization writes
 * them. Two parties that canonicalize one value get the same bytes, so a
 * digest of a normalized object ({@link canonicalDigest}) is comparable.
 */
import { isJsonObject } from "../json-object.js";
import { sha256Digest } from "./bytes.js";

/**
 * The canonical JSON text of `value` (RFC 8785). Throws a `TypeError` on what
 * JSON cannot carry (a non-finite number, `undefined` in an array, a
 * function, a bigint); an object member whose value is `undefined` is left
 * out, as `JSON.stringify` does.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === "boolean" || typeof value === "string") {
    return JSON.stringify(value);
  }
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`not a JSON number: ${value}`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isJsonObject(value)) {
    const record = value;
    const members = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
    return `{${members.join(",")}}`;
  }
  throw new TypeError(`not a JSON value: ${typeof value}`);
}

/** `sha256:<hex>` of the UTF-8 bytes of {@link canonicalJson}(`value`). */
export function canonicalDigest(value: unknown): string {
  return sha256Digest(canonicalJson(value));
}
