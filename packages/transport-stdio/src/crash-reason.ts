/**
 * The reason a crashed child gave, for the `provider_crashed` message: the
 * last line of its stderr that says something — not a stack frame (`at …`)
 * nor Node's closing `Node.js vX` line, so an uncaught error reads as its
 * message. Bounded ({@link MAX_CRASH_REASON_CHARS}) and escaped: control
 * characters (terminal escapes, carriage returns) and bidirectional
 * overrides are shown as `\uXXXX`, so a child cannot write to the user's
 * terminal through the host's error message.
 */
import { MAX_CRASH_REASON_CHARS } from "./limits.js";

const NOISE = /^(at\s|Node\.js v\d)/;
// C0, DEL, C1, line/paragraph separators, bidi embeddings, overrides and isolates.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The child's last meaningful stderr line, bounded and escaped; `undefined` when it wrote none. */
export function crashReason(stderr: string): string | undefined {
  const lines = stderr.split(/\r\n|\n|\r/);
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = lines[i]!.trim();
    if (line === "" || NOISE.test(line)) continue;
    const chars = Array.from(line); // by code point: a cut never splits a surrogate pair
    const kept = chars.length > MAX_CRASH_REASON_CHARS;
    const text = (kept ? chars.slice(0, MAX_CRASH_REASON_CHARS).join("") : line).replace(
      UNSAFE,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
    return kept ? `${text}…` : text;
  }
  return undefined;
}
