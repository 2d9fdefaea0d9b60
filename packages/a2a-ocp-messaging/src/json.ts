import { fail, ok, type Result } from "./errors.js";
import { MAX_JSON_DEPTH } from "./limits.js";

/** Whether arrays/objects in `value` nest deeper than `maxDepth` (iterative: no recursion on hostile input). */
export function exceedsDepth(value: unknown, maxDepth: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== "object" || current === null) continue;
    if (depth >= maxDepth) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

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

/** Parses JSON text with a depth bound: a value, `invalid_json` or `message_too_deep`. */
export function parseJson(
  text: string,
  maxDepth: number = MAX_JSON_DEPTH,
): Result<unknown, "invalid_json" | "message_too_deep"> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    return fail("invalid_json", "the message is not JSON", { cause });
  }
  if (exceedsDepth(value, maxDepth)) {
    return fail("message_too_deep", `the message nests deeper than ${maxDepth}`, {
      details: { maxDepth },
    });
  }
  return ok(value);
}
