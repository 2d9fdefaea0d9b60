import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { blank } from "../src/audit.js";
import {
  decodeLineFast,
  encodeFramesLine,
  encodeQueryJson,
  isPlainQuery,
  isPlainResult,
  MAX_WALK_DEPTH,
  meetsStrictRules,
  membersKept,
  parseJsonFast,
  sealQuery,
  writeFramesLine,
} from "../src/fast/index.js";
import {
  type ContextQueryResult,
  ContextQueryResultSchema,
  ContextQuerySchema,
  decodeLine,
  encodeLine,
  StrictContextQueryResultSchema,
  toWire,
} from "../src/index.js";
import { parseJsonText } from "../src/internal.js";

// Values near the schema: mostly valid members, with now and then a wrong
// type, a null, an empty string, an out-of-range number or an unknown key, so
// that both the fast path and the schema's path are taken.
const text = fc.oneof(
  { weight: 6, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constant("") },
);
const odd = fc.oneof(fc.constant(null), fc.integer(), fc.boolean(), fc.constant([]));
const maybe = <T>(value: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 8, arbitrary: value }, { weight: 1, arbitrary: odd });
const optional = <T>(value: fc.Arbitrary<T>) => fc.option(maybe(value), { nil: undefined });
const u32 = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0, max: 5000 }) },
  { weight: 1, arbitrary: fc.constantFrom(-1, 1.5, 4_294_967_295, 4_294_967_296) },
);
const kind = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom("doc", "snippet", "fact", "graph") },
  { weight: 1, arbitrary: fc.constantFrom("Doc", "", "other") },
);
const extra = fc.option(fc.constantFrom("extra", "__proto__", "constructor"), { nil: undefined });

/** Drops undefined members, as JSON would, and adds an unknown key now and then. */
function shape(members: Record<string, unknown>, unknown: string | undefined) {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(members)) if (value !== undefined) out[key] = value;
  if (unknown !== undefined) Object.defineProperty(out, unknown, { value: 1, enumerable: true });
  return out;
}

const provenance = fc
  .record({ type: maybe(text), uri: optional(text), by: optional(text), extra })
  .map(({ extra: unknown, ...members }) => shape(members, unknown));
const relation = fc
  .record({ rel: maybe(text), target_uri: maybe(text), display_name: optional(text), extra })
  .map(({ extra: unknown, ...members }) => shape(members, unknown));
const frame = fc
  .record({
    id: maybe(text),
    kind,
    title: maybe(text),
    content: maybe(fc.string({ maxLength: 40 })),
    uri: optional(text),
    score: maybe(fc.double({ min: -0.5, max: 1.5, noNaN: true })),
    token_cost: u32,
    recorded_at: optional(text),
    provenance: fc.option(maybe(fc.array(provenance, { maxLength: 2 })), { nil: undefined }),
    citation_label: optional(text),
    embedding: optional(
      fc.record({
        fingerprint: text,
        vector: fc.option(fc.array(fc.integer()), { nil: undefined }),
      }),
    ),
    relations: fc.option(maybe(fc.array(relation, { maxLength: 2 })), { nil: undefined }),
    extra,
  })
  .map(({ extra: unknown, ...members }) => shape(members, unknown));
const result = fc
  .record({
    frames: maybe(fc.array(frame, { maxLength: 3 })),
    truncated: maybe(fc.boolean()),
    dropped_estimate: fc.option(u32, { nil: undefined }),
    extra,
  })
  .map(({ extra: unknown, ...members }) => shape(members, unknown));
const query = fc
  .record({
    goal: maybe(text),
    query_text: optional(text),
    embedding: optional(fc.array(fc.integer(), { maxLength: 3 })),
    kinds: fc.option(maybe(fc.array(kind, { maxLength: 2 })), { nil: undefined }),
    anchors: fc.option(maybe(fc.array(text, { maxLength: 2 })), { nil: undefined }),
    max_frames: u32,
    max_tokens: u32,
    as_of: optional(text),
    extra,
  })
  .map(({ extra: unknown, ...members }) => shape(members, unknown));
const id = fc.option(fc.oneof(fc.constantFrom("1", "a7", ""), fc.string({ maxLength: 3 })), {
  nil: undefined,
});

/** Both decoders' outcomes, comparable: the value, or the error's code and message. */
function outcome(decoded: ReturnType<typeof decodeLine>) {
  return decoded.ok
    ? { ok: true, value: decoded.value }
    : { ok: false, code: decoded.error.code, message: decoded.error.message };
}

const RUNS = { numRuns: 600, seed: 18 };

describe("plain-form fast path", () => {
  it("decodes every frames line exactly as decodeLine does", () => {
    fc.assert(
      fc.property(id, result, (replyId, value) => {
        const line = JSON.stringify({ type: "frames", id: replyId, result: value });
        expect(outcome(decodeLineFast(line))).toEqual(outcome(decodeLine(line)));
      }),
      RUNS,
    );
  });

  it("decodes every query line exactly as decodeLine does", () => {
    fc.assert(
      fc.property(id, query, (queryId, value) => {
        const line = JSON.stringify({ type: "query", id: queryId, query: value });
        expect(outcome(decodeLineFast(line))).toEqual(outcome(decodeLine(line)));
      }),
      RUNS,
    );
  });

  it("vouches only for results the lenient and strict schemas give back unchanged", () => {
    let plain = 0;
    fc.assert(
      fc.property(result, (value) => {
        if (isPlainResult(value)) {
          plain += 1;
          const parsed = ContextQueryResultSchema.safeParse(value);
          expect(parsed.success).toBe(true);
          expect(parsed.data).toEqual(value);
        }
        if (isPlainResult(value, { strict: true })) {
          const parsed = StrictContextQueryResultSchema.safeParse(value);
          expect(parsed.success).toBe(true);
          expect(parsed.data).toEqual(value);
        }
      }),
      RUNS,
    );
    // The generator reaches the fast path, not only the fallback.
    expect(plain).toBeGreaterThan(10);
  });

  it("S1 on a leniently decoded result: meetsStrictRules agrees with the strict schema", () => {
    let decoded = 0;
    let refused = 0;
    fc.assert(
      fc.property(result, (value) => {
        const lenient = ContextQueryResultSchema.safeParse(value);
        if (!lenient.success) return;
        decoded += 1;
        const strict = StrictContextQueryResultSchema.safeParse(lenient.data).success;
        if (!strict) refused += 1;
        expect(meetsStrictRules(lenient.data)).toBe(strict);
      }),
      RUNS,
    );
    // Both verdicts are reached.
    expect(decoded - refused).toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(10);
  });

  it("takes only a result isPlainResult vouched for (a type error otherwise)", () => {
    const unchecked: ContextQueryResult = { frames: [], truncated: false };
    // @ts-expect-error: a result no isPlainResult narrowed is not a PlainResult (tsc fails when this line compiles)
    const unvouched = () => writeFramesLine("q-1", unchecked);
    expect(unvouched).toBeTypeOf("function");
    expect(isPlainResult(unchecked)).toBe(true);
    if (isPlainResult(unchecked)) {
      expect(writeFramesLine("q-1", unchecked)).toBe(encodeFramesLine("q-1", unchecked));
    }
  });

  it("writes, for a result it vouched for, the line encodeFramesLine writes", () => {
    fc.assert(
      fc.property(id, result, (replyId, value) => {
        if (!isPlainResult(value)) return;
        expect(writeFramesLine(replyId, value)).toBe(encodeFramesLine(replyId, value));
      }),
      RUNS,
    );
  });

  it("calls blank exactly the strings trim empties, the first-character shortcut included", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 6 }),
          fc.string({
            unit: fc.constantFrom(
              " ",
              "\t",
              "\n",
              "\u00a0",
              "\u2028",
              "\ufeff",
              "a",
              "~",
              "\u007f",
            ),
          }),
        ),
        (text) => {
          expect(blank(text)).toBe(text.trim() === "");
        },
      ),
      RUNS,
    );
    expect(blank(undefined)).toBe(true);
    expect(blank(3)).toBe(true);
  });

  it("never writes to a borrowed value", () => {
    fc.assert(
      fc.property(result, query, (r, q) => {
        const before = [JSON.stringify(r), JSON.stringify(q)];
        isPlainResult(r, { strict: true });
        isPlainQuery(q);
        expect([JSON.stringify(r), JSON.stringify(q)]).toEqual(before);
      }),
      RUNS,
    );
  });

  it("encodes a frames reply byte for byte as encodeLine does", () => {
    let fast = 0;
    fc.assert(
      fc.property(id, result, (replyId, value) => {
        const parsed = ContextQueryResultSchema.safeParse(value);
        if (!parsed.success || replyId === "") return;
        const line = encodeFramesLine(replyId, parsed.data);
        if (line === undefined) return;
        fast += 1;
        expect(line).toBe(encodeLine({ type: "frames", id: replyId, result: parsed.data }));
      }),
      RUNS,
    );
    expect(fast).toBeGreaterThan(10);
  });

  it("encodes a query byte for byte as toWire does", () => {
    let fast = 0;
    fc.assert(
      fc.property(query, (value) => {
        const parsed = ContextQuerySchema.safeParse(value);
        if (!parsed.success) return;
        const json = encodeQueryJson(parsed.data);
        if (json === undefined) return;
        fast += 1;
        expect(json).toBe(JSON.stringify(toWire({ type: "query", query: parsed.data }).query));
      }),
      RUNS,
    );
    expect(fast).toBeGreaterThan(10);
  });

  it("seals a query in the plain form into a frozen copy that encodes as toWire does, once", () => {
    let sealedCount = 0;
    let refused = 0;
    fc.assert(
      fc.property(query, (value) => {
        const sealed = sealQuery(value);
        if (!isPlainQuery(value)) {
          refused += 1;
          expect(sealed).toBeUndefined();
          return;
        }
        sealedCount += 1;
        const before = structuredClone(value);
        expect(sealed).toEqual(value);
        expect(sealed).not.toBe(value);
        for (const member of [sealed, sealed!.kinds, sealed!.anchors, sealed!.embedding]) {
          if (member != null) expect(Object.isFrozen(member)).toBe(true);
        }
        expect(sealed!.kinds).not.toBe((value as { kinds: unknown }).kinds);
        const json = encodeQueryJson(sealed!);
        expect(json).toBe(JSON.stringify(toWire({ type: "query", query: sealed! }).query));
        expect(encodeQueryJson(sealed!)).toBe(json);
        // The caller's object is neither frozen nor changed.
        expect(Object.isFrozen(value)).toBe(false);
        expect(value).toEqual(before);
      }),
      RUNS,
    );
    expect(sealedCount).toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(10);
  });

  it("trusts only queries it sealed: a frozen query that is not plain is still checked", () => {
    const sealed = sealQuery({
      goal: "g",
      kinds: ["doc"],
      anchors: [],
      max_frames: 1,
      max_tokens: 9,
    })!;
    expect(() => {
      (sealed as { max_tokens: number }).max_tokens = 1_000_000;
    }).toThrow(TypeError);
    expect(() => (sealed.kinds as string[]).push("snippet")).toThrow(TypeError);
    expect(encodeQueryJson(sealed)).toBe(
      '{"goal":"g","kinds":["doc"],"max_frames":1,"max_tokens":9}',
    );
    // Only the latest sealed query is remembered; an earlier one is checked and encoded again.
    const later = sealQuery({
      goal: "h",
      kinds: [],
      anchors: ["a"],
      max_frames: 2,
      max_tokens: 3,
    })!;
    expect(encodeQueryJson(later)).toBe(
      '{"goal":"h","anchors":["a"],"max_frames":2,"max_tokens":3}',
    );
    expect(encodeQueryJson(sealed)).toBe(
      '{"goal":"g","kinds":["doc"],"max_frames":1,"max_tokens":9}',
    );
    expect(encodeQueryJson(later)).toBe(
      '{"goal":"h","anchors":["a"],"max_frames":2,"max_tokens":3}',
    );
    const forged = Object.freeze({
      goal: 7,
      kinds: Object.freeze(["doc"]),
      anchors: Object.freeze([]),
      max_frames: 1,
      max_tokens: 9,
    });
    expect(encodeQueryJson(forged as never)).toBeUndefined();
    expect(sealQuery(forged)).toBeUndefined();
    expect(sealQuery(null)).toBeUndefined();
  });

  it("decides a line nested deeper than any call stack as decodeLine does, without throwing", () => {
    for (const depth of [255, 256, 300, 10_000, 200_000]) {
      const deep = "[".repeat(depth) + "]".repeat(depth);
      const escaped = `[${"[".repeat(depth)}"\\u0041"${"]".repeat(depth)}]`;
      for (const line of [
        `{"type":"frames","result":${deep}}`,
        `{"type":"query","query":{"goal":${escaped}}}`,
        `{"type":"frames","result":{"frames":[],"truncated":false,"x":${deep},"x":1}}`,
      ]) {
        expect(outcome(decodeLineFast(line))).toEqual(outcome(decodeLine(line)));
      }
      // Past the walk's depth the cheap check says no (the exact scanner decides); never a throw.
      const value = JSON.parse(deep);
      expect(membersKept(deep, value)).toBe(depth <= MAX_WALK_DEPTH);
      expect(membersKept(escaped, JSON.parse(escaped))).toBe(depth < MAX_WALK_DEPTH);
    }
    // A bound of its own: containers at most that deep; past 256, or not a number, 256.
    const three = "[[[1]]]";
    expect(membersKept(three, JSON.parse(three), 3)).toBe(true);
    expect(membersKept(three, JSON.parse(three), 2)).toBe(false);
    expect(membersKept(three, JSON.parse(three), -1)).toBe(false);
    expect(membersKept(three, JSON.parse(three), Number.NaN)).toBe(true);
    const deep = "[".repeat(300) + "]".repeat(300);
    expect(membersKept(deep, JSON.parse(deep), Number.POSITIVE_INFINITY)).toBe(false);
  });

  it("keeps the I-JSON and newline errors of decodeLine", () => {
    const frames = '{"frames":[],"truncated":false}';
    for (const line of [
      `{"type":"frames","result":${frames},"result":${frames}}`,
      '{"type":"frames","result":{"frames":[],"truncated":false,"truncated":true}}',
      `{"type":"frames",\n"result":${frames}}`,
      "not json",
      "",
    ]) {
      const fast = decodeLineFast(line);
      expect(fast.ok).toBe(false);
      expect(outcome(fast)).toEqual(outcome(decodeLine(line)));
    }
  });
});

describe("membersKept (the cheap I-JSON check)", () => {
  const members = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      fc.string({ maxLength: 6 }),
      fc.integer(),
      fc.constant(null),
      fc.array(tie("value"), { maxLength: 3 }),
      tie("object"),
    ),
    object: fc
      .array(
        fc.tuple(fc.constantFrom("a", "b", 'q"', "\\\\", ":", "__proto__", "c:d"), tie("value")),
        { maxLength: 4 },
      )
      .map((pairs) => ({ pairs })),
  }));
  /** JSON text of an object given as member pairs, duplicates kept as written. */
  /** With `colon`, the colons inside names and strings are written as that escape. */
  function write(node: unknown, space: string, colon = ":"): string {
    const literal = (text: unknown) => JSON.stringify(text).replaceAll(":", colon);
    if (typeof node === "object" && node !== null && "pairs" in node) {
      return `{${(node.pairs as [string, unknown][])
        .map(([key, member]) => `${literal(key)}${space}:${write(member, space, colon)}`)
        .join(`,${space}`)}}`;
    }
    if (Array.isArray(node))
      return `[${node.map((m) => write(m, space, colon)).join(`,${space}`)}]`;
    return typeof node === "string" ? literal(node) : JSON.stringify(node);
  }

  /** Whether any member name of the written object holds a colon (such a text goes to the scanner). */
  function colonInName(node: unknown): boolean {
    if (Array.isArray(node)) return node.some(colonInName);
    if (typeof node !== "object" || node === null || !("pairs" in node)) return false;
    return (node.pairs as [string, unknown][]).some(
      ([key, member]) => key.includes(":") || colonInName(member),
    );
  }

  it("says no when the I-JSON scanner finds a duplicate member name, yes when it finds none", () => {
    let named = 0;
    fc.assert(
      fc.property(members.object, fc.constantFrom("", " ", "\n "), (object, space) => {
        const text = write(object, space);
        const value = JSON.parse(text);
        const duplicate = parseJsonText(text).ok === false;
        if (duplicate) expect(membersKept(text, value)).toBe(false);
        else if (colonInName(object)) {
          named += 1;
          // Names are not searched for colons: without a `\u` such a text is left to the
          // scanner, and parseJsonFast, which asks it then, gives the scanner's verdict.
          if (!text.includes("\\u")) expect(membersKept(text, value)).toBe(false);
          expect(parseJsonFast(text)).toEqual({ ok: true, value });
        } else expect(membersKept(text, value)).toBe(true);
      }),
      { numRuns: 1000, seed: 18 },
    );
    expect(named).toBeGreaterThan(50);
  });

  it("stays exact when names and strings write their colons as \\u003a", () => {
    // A `\u003a` is a colon in the parsed value that the text does not write as one.
    fc.assert(
      fc.property(members.object, fc.constantFrom("", " "), (object, space) => {
        const text = write(object, space, "\\u003a");
        const value = JSON.parse(text);
        const duplicate = parseJsonText(text).ok === false;
        expect(membersKept(text, value)).toBe(!duplicate);
      }),
      { numRuns: 1000, seed: 19 },
    );
  });

  it("is not fooled by a repeated name whose dropped colons are escaped", () => {
    // Two members written, one kept; the kept string's colon came from an escape.
    for (const text of [
      '{"a":"\\u003a","a":"\\u003a"}',
      '{"a":":","a":"\\u003a"}',
      '{"x:\\u0079":1,"x:\\u0079":2}',
    ]) {
      expect(parseJsonText(text).ok).toBe(false);
      expect(membersKept(text, JSON.parse(text))).toBe(false);
    }
    // And says yes without any escape, colons in strings included; a colon in a name
    // leaves the text to the scanner, which finds no duplicate in the first and one in the second.
    expect(
      membersKept('{"a":"c:d","e":[":",{"f":"::"}],"g":"h"}', {
        a: "c:d",
        e: [":", { f: "::" }],
        g: "h",
      }),
    ).toBe(true);
    const named = '{"a:b":"c:d","g":"h"}';
    expect(membersKept(named, JSON.parse(named))).toBe(false);
    expect(parseJsonFast(named)).toEqual({ ok: true, value: { "a:b": "c:d", g: "h" } });
    expect(membersKept('{"a:b":1,"a:b":2}', { "a:b": 2 })).toBe(false);
    expect(parseJsonFast('{"a:b":1,"a:b":2}').ok).toBe(false);
  });
});
