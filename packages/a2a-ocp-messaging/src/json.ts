import { membersKept } from "@ocp/types/fast";
import { scanJsonText } from "@ocp/types/internal";
import { fail, ok, type Result } from "./errors.js";
import { MAX_JSON_DEPTH } from "./limits.js";

/** The guard the message layer narrows parsed JSON with: defined once, in `@ocp/types`. */
/** The number of UTF-8 bytes of `text` (a lone surrogate counts as the 3 bytes of U+FFFD): `@ocp/types`' one count. */
export { isJsonObject, utf8ByteLength as utf8Length } from "@ocp/types/internal";

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
