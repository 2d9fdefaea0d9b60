import { scanJsonText } from "@ocp/types/internal";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJson } from "../src/json.js";

/** The verdict parseJson must give: JSON.parse, then the scan of names and depth on every text. */
function scanned(text: string, maxDepth: number): { code: string; details?: unknown } {
  try {
    JSON.parse(text);
  } catch {
    return { code: "invalid_json" };
  }
  const problem = scanJsonText(text, maxDepth);
  if (problem === undefined) return { code: "ok" };
  if (problem.kind === "too_deep") return { code: "message_too_deep", details: { maxDepth } };
  return { code: "duplicate_key", details: { key: problem.key, path: problem.path } };
}

function verdict(text: string, maxDepth: number): { code: string; details?: unknown } {
  const parsed = parseJson(text, maxDepth);
  if (parsed.ok) return { code: "ok" };
  const { code, details } = parsed.error;
  return details === undefined ? { code } : { code, details };
}

// Objects written member by member, so names can repeat; names and strings
// with colons, quotes and backslashes, some colons written as `\u003a`.
const tree = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom("a:b", "x", 'q"', "\\", "::", "a2a://agent", "2026-12-01T08:00:00Z"),
    fc.integer(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    tie("object"),
  ),
  object: fc
    .array(fc.tuple(fc.constantFrom("from", "to", "a:b", "__proto__", "x"), tie("value")), {
      maxLength: 4,
    })
    .map((pairs) => ({ pairs })),
}));

function write(node: unknown, colon: string): string {
  const literal = (text: unknown) => JSON.stringify(text).replaceAll(":", colon);
  if (typeof node === "object" && node !== null && "pairs" in node) {
    const pairs = node.pairs as [string, unknown][];
    return `{${pairs.map(([k, v]) => `${literal(k)}:${write(v, colon)}`).join(",")}}`;
  }
  if (Array.isArray(node)) return `[${node.map((m) => write(m, colon)).join(",")}]`;
  return typeof node === "string" ? literal(node) : JSON.stringify(node);
}

describe("parseJson", () => {
  it("gives the verdict of the full scan on every text: duplicate names (with their path), depth, escapes", () => {
    let refused = 0;
    fc.assert(
      fc.property(
        tree.object,
        fc.constantFrom(":", "\\u003a"),
        fc.integer({ min: 1, max: 6 }),
        (object, colon, maxDepth) => {
          const text = write(object, colon);
          const expected = scanned(text, maxDepth);
          if (expected.code !== "ok") refused += 1;
          expect(verdict(text, maxDepth)).toEqual(expected);
        },
      ),
      { numRuns: 3000, seed: 18 },
    );
    expect(refused).toBeGreaterThan(300);
  });

  it("refuses nesting one past the bound and takes it at the bound, far past a call stack too", () => {
    for (const maxDepth of [1, 64, 256, 300]) {
      const at = `${"[".repeat(maxDepth)}${"]".repeat(maxDepth)}`;
      const past = `[${at}]`;
      expect(verdict(at, maxDepth)).toEqual({ code: "ok" });
      expect(verdict(past, maxDepth)).toEqual({ code: "message_too_deep", details: { maxDepth } });
    }
    const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
    expect(verdict(deep, 64).code).toBe("message_too_deep");
  });
});
