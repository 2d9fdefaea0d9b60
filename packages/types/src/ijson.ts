/**
 * I-JSON (RFC 7493) checks on JSON text that `JSON.parse` accepted:
 * duplicate member names (§2.3: "Objects in I-JSON messages MUST NOT have
 * members with duplicate names") and nesting depth. `JSON.parse` keeps the
 * last of duplicate names while other parsers keep the first, so a message
 * with duplicates can mean two things to two readers (a signature verified
 * over one reading, an action taken on the other): such text is refused.
 *
 * One linear pass over the text; string bodies are skipped with `indexOf`,
 * member names are compared as decoded strings (`"\u0066rom"` is `"from"`).
 * The text must already have parsed as JSON: on anything else the result is
 * meaningless (but the scan still ends and never throws).
 */

/** What {@link scanJsonText} found wrong, or `undefined` when nothing. */
export type JsonTextProblem =
  | { readonly kind: "duplicate_key"; readonly key: string; readonly path: string }
  | { readonly kind: "too_deep"; readonly maxDepth: number };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/** Index of the quote closing the string whose opening quote is at `start` (or `text.length`). */
function stringEnd(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return text.length;
    let backslashes = 0;
    for (let b = quote - 1; b > start && text.charCodeAt(b) === BACKSLASH; b--) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

function decodeName(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end);
  if (raw.indexOf("\\") === -1) return raw;
  try {
    return JSON.parse(text.slice(start, end + 1)) as string;
  } catch {
    return raw;
  }
}

/**
 * Scans JSON text for a duplicate member name (with its JSON path) and for
 * nesting deeper than `maxDepth` (arrays and objects; the outermost is 1).
 */
export function scanJsonText(
  text: string,
  maxDepth = Number.POSITIVE_INFINITY,
): JsonTextProblem | undefined {
  // One entry per open container: the names seen so far (objects) or null (arrays).
  const names: Array<Set<string> | null> = [];
  // The member name or index leading to each open container, for the path.
  const trail: string[] = [];
  let lastName = "";
  let expectName = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (expectName) {
        const name = decodeName(text, i, end);
        const seen = names[names.length - 1];
        if (seen !== null && seen !== undefined) {
          if (seen.has(name)) {
            return { kind: "duplicate_key", key: name, path: [...trail.slice(1), name].join(".") };
          }
          seen.add(name);
        }
        lastName = name;
        expectName = false;
      }
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      trail.push(names.length === 0 ? "" : names[names.length - 1] === null ? "[]" : lastName);
      names.push(c === OPEN_OBJECT ? new Set() : null);
      if (names.length > maxDepth) return { kind: "too_deep", maxDepth };
      expectName = c === OPEN_OBJECT;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      names.pop();
      trail.pop();
      expectName = false;
    } else if (c === COMMA) {
      expectName = names.length > 0 && names[names.length - 1] !== null;
    }
  }
  return undefined;
}
