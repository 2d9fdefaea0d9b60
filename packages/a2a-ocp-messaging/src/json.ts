import { membersKept } from "@ocp/types/fast";
import { scanJsonText } from "@ocp/types/internal";
import { fail, ok, type Result } from "./errors.js";
import { MAX_JSON_DEPTH } from "./limits.js";

/** The guard the message layer narrows parsed JSON with: defined once, in `@ocp/types`. */
export { isJsonObject } from "@ocp/types/internal";

/** The number of UTF-8 bytes of `text` (a lone surrogate counts as the 3 bytes of U+FFFD). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Parses JSON text as I-JSON (RFC 7493) with a depth bound: a value,
 * `invalid_json`, `duplicate_key` (an object with two members of one name,
 * which `JSON.parse` silently collapses to the last while other parsers keep
 * the first) or `message_too_deep`. After `JSON.parse`, `membersKept` of
 * `@ocp/types/fast` (the colons of the text against the members and colons of
 * the value, walked at most `maxDepth` deep) vouches for a text without
 * either; any other text is scanned once for names and depth, which names
 * the problem.
 */
export function parseJson(
  text: string,
  maxDepth: number = MAX_JSON_DEPTH,
): Result<unknown, "invalid_json" | "duplicate_key" | "message_too_deep"> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    return fail("invalid_json", "the message is not JSON", { cause });
  }
  if (typeof value !== "object" || value === null) return ok(value);
  // The cheap check (colons counted, a bounded walk) vouches for nearly every text; the scan names what is wrong.
  if (membersKept(text, value, maxDepth)) return ok(value);
  const problem = scanJsonText(text, maxDepth);
  if (problem === undefined) return ok(value);
  if (problem.kind === "too_deep") {
    return fail("message_too_deep", `the message nests deeper than ${maxDepth}`, {
      details: { maxDepth },
    });
  }
  return fail(
    "duplicate_key",
    `the message has two members named "${problem.key.slice(0, 80)}" (at ${problem.path.slice(0, 160)}); I-JSON (RFC 7493 §2.3) forbids duplicate names`,
    { details: { key: problem.key, path: problem.path } },
  );
}
