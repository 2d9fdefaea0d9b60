import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  decodeLineFast,
  plainFormCheck,
  plainFormSource,
  wireWriter,
  writeQueryLine,
} from "../src/fast/index.js";
import {
  ContextFrameSchema,
  ContextQueryResultSchema,
  ContextQuerySchema,
  decodeLine,
  encodeLine,
} from "../src/index.js";

const RUNS = { numRuns: 500, seed: 42 };

/** The schema's verdict and value. */
function bySchema(schema: z.ZodType, value: unknown) {
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false };
}

/** The schema's output as `toWire` writes it: absent and null members and empty defaulted lists left off. */
function wire(schema: z.ZodType, value: unknown): unknown {
  const def = schema.def as {
    type: string;
    shape?: Record<string, z.ZodType>;
    innerType?: z.ZodType;
    element?: z.ZodType;
  };
  if (def.type === "optional" || def.type === "nullable") return wire(def.innerType!, value);
  if (def.type === "default") return wire(def.innerType!, value);
  if (def.type === "array") return (value as unknown[]).map((member) => wire(def.element!, member));
  if (def.type !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(def.shape!)) {
    const held = (value as Record<string, unknown>)[key];
    if (held === undefined || held === null) continue;
    const defaulted = (member.def as { type: string }).type === "default";
    if (defaulted && Array.isArray(held) && held.length === 0) continue;
    out[key] = wire(member, held);
  }
  return out;
}

// A frame schema with a new member, and the result and query schemas around it.
const ExtendedFrame = ContextFrameSchema.extend({ freshness: z.number().int().min(0).max(10) });
const ExtendedResult = ContextQueryResultSchema.extend({ frames: z.array(ExtendedFrame) });
const ExtendedQuery = ContextQuerySchema.extend({ locale: z.string().min(2).optional() });

const frame = fc.record(
  {
    id: fc.string({ maxLength: 6 }),
    kind: fc.constantFrom("doc", "fact", "other"),
    title: fc.string({ maxLength: 6 }),
    content: fc.string({ maxLength: 12 }),
    score: fc.double({ min: 0, max: 1, noNaN: true }),
    token_cost: fc.nat(100),
    uri: fc.option(fc.string({ maxLength: 6 }), { nil: null }),
    freshness: fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: 0, max: 10 }) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(11, -1, 1.5, "3", null) },
    ),
    provenance: fc.array(
      fc.record({ type: fc.string({ maxLength: 4 }) }, { noNullPrototype: true }),
      { maxLength: 2 },
    ),
    relations: fc.constant([]),
  },
  {
    requiredKeys: [
      "id",
      "kind",
      "title",
      "content",
      "score",
      "token_cost",
      "freshness",
      "provenance",
    ],
    noNullPrototype: true,
  },
);
const result = fc.record(
  { frames: fc.array(frame, { maxLength: 3 }), truncated: fc.boolean() },
  { noNullPrototype: true },
);
const query = fc.record(
  {
    goal: fc.string({ maxLength: 8 }),
    locale: fc.oneof(fc.constantFrom("en", "de-CH"), fc.constantFrom<unknown>("", 5, null)),
    kinds: fc.array(fc.constantFrom("doc", "fact"), { maxLength: 2 }),
    anchors: fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }),
    max_frames: fc.nat(20),
    max_tokens: fc.nat(5000),
  },
  { requiredKeys: ["goal", "max_frames", "max_tokens"], noNullPrototype: true },
);

describe("the fast path is compiled from the schemas", () => {
  it("a member added to the frame schema reaches the check and the writer: fast and schema agree, and the fast path takes every valid frame", () => {
    const lenient = plainFormCheck(ExtendedResult);
    const owned = plainFormCheck(ExtendedResult, { fill: true });
    const write = wireWriter(ExtendedResult)!;
    let taken = 0;
    fc.assert(
      fc.property(result, (value) => {
        const schema = bySchema(ExtendedResult, value);
        const fast = lenient(value);
        if (fast) expect(schema).toEqual({ ok: true, value });
        // Complete on these values: a check from a list that does not know `freshness` takes
        // none of them, or takes a bad one. Without its `relations` (defaulted) a frame is not
        // in the plain form, unless the check may fill the list in.
        const complete = value.frames.every((f) => "relations" in f);
        expect(fast).toBe(schema.ok && complete);
        if (fast) {
          taken += 1;
          expect(write(value)).toBe(JSON.stringify(wire(ExtendedResult, value)));
          const written = JSON.parse(write(value)) as { frames: { freshness: unknown }[] };
          expect(written.frames.map((f) => f.freshness)).toEqual(
            value.frames.map((f) => f.freshness),
          );
        }
        const copy = structuredClone(value);
        expect(owned(copy)).toBe(schema.ok);
        if (schema.ok) expect(copy).toEqual(schema.value);
      }),
      RUNS,
    );
    expect(taken).toBeGreaterThan(50);
  });

  it("a member added to the query schema reaches the check and the writer, in declaration order", () => {
    const check = plainFormCheck(ExtendedQuery, { fill: true });
    const write = wireWriter(ExtendedQuery)!;
    let taken = 0;
    fc.assert(
      fc.property(query, (value) => {
        const original = structuredClone(value);
        const schema = bySchema(ExtendedQuery, original);
        const fast = check(value); // fills kinds and anchors in, as the schema's defaults do
        if (fast) expect(schema).toEqual({ ok: true, value });
        expect(fast).toBe(schema.ok);
        if (fast) {
          taken += 1;
          expect(write(value)).toBe(JSON.stringify(wire(ExtendedQuery, value)));
          const keys = Object.keys(JSON.parse(write(value)));
          const order = Object.keys(ExtendedQuery.shape);
          expect(keys).toEqual(order.filter((key) => keys.includes(key)));
        }
      }),
      RUNS,
    );
    expect(taken).toBeGreaterThan(50);
  });

  it("decodeLineFast gives decodeLine's value or error on random JSON and random text", () => {
    const line = fc.oneof(
      fc.json({ maxDepth: 3 }),
      fc.string({ maxLength: 30 }),
      fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify({ type: "query", query: value })),
      fc
        .jsonValue({ maxDepth: 3 })
        .map((value) => JSON.stringify({ type: "frames", result: value })),
    );
    fc.assert(
      fc.property(line, (text) => {
        const fast = decodeLineFast(text);
        const slow = decodeLine(text);
        expect(fast.ok).toBe(slow.ok);
        if (fast.ok && slow.ok) expect(fast.value).toEqual(slow.value);
        if (!fast.ok && !slow.ok) expect(fast.error.message).toBe(slow.error.message);
      }),
      RUNS,
    );
  });

  it("writes the query envelope around an encoded query as encodeLine does, id or none", () => {
    fc.assert(
      fc.property(
        fc.option(fc.string({ minLength: 1, maxLength: 8 }), { nil: undefined }),
        (id) => {
          const q = {
            goal: "g",
            kinds: ["doc" as const],
            anchors: [],
            max_frames: 1,
            max_tokens: 2,
          };
          const json = JSON.stringify({ goal: "g", kinds: ["doc"], max_frames: 1, max_tokens: 2 });
          expect(writeQueryLine(id, json)).toBe(encodeLine({ type: "query", id, query: q }));
        },
      ),
      RUNS,
    );
  });

  it("leaves to the schema what it cannot read from it: a transform, a refinement other than one .refine", () => {
    const transformed = z.object({ a: z.string().transform((s) => s.length) });
    expect(plainFormCheck(transformed)({ a: "x" })).toBe(false);
    const superRefined = z.object({ a: z.string() }).superRefine(() => undefined);
    expect(plainFormCheck(superRefined)({ a: "x" })).toBe(false);
    const refined = z.object({ a: z.number(), b: z.number() }).refine((v) => v.a <= v.b);
    expect(plainFormCheck(refined)({ a: 1, b: 2 })).toBe(true);
    expect(plainFormCheck(refined)({ a: 3, b: 2 })).toBe(false);
    const email = z.object({ to: z.email() });
    expect(plainFormCheck(email)({ to: "a@b.co" })).toBe(false);
  });

  it("plainFormSource gives the same checks as source, shared functions and named constants, and lists what it cannot compile", () => {
    const refined = z.object({ a: z.number(), b: z.number() }).refine((v) => v.a <= v.b);
    const source = plainFormSource(
      { refined, query: ContextQuerySchema, email: z.email() },
      (index) => `c${index}`,
    );
    expect(source.unsure).toEqual(["a string check or format"]);
    const body = `${source.functions.join("\n")}\nreturn { ${Object.entries(source.roots)
      .map(([name, expression]) => `${name}: (v) => ${expression}`)
      .join(", ")} };`;
    const names = source.constants.map((_, index) => `c${index}`);
    const checks = new Function(...names, body)(...source.constants) as Record<
      string,
      (value: unknown) => boolean
    >;
    const samples = [
      { a: 1, b: 2 },
      { a: 3, b: 2 },
      { goal: "g", kinds: [], anchors: [], max_frames: 1, max_tokens: 1 },
      { goal: "", kinds: [], anchors: [], max_frames: 1, max_tokens: 1 },
      "a@b.co",
      null,
    ];
    for (const sample of samples) {
      expect(checks["refined"]!(sample)).toBe(plainFormCheck(refined)(sample));
      expect(checks["query"]!(sample)).toBe(plainFormCheck(ContextQuerySchema)(sample));
      expect(checks["email"]!(sample)).toBe(false);
    }
    expect(checks["refined"]!({ a: 1, b: 2 })).toBe(true);
    expect(plainFormSource({ refined }, (index) => `c${index}`).unsure).toEqual([]);
  });

  it("where code cannot be compiled (no eval under a CSP), every check says no and no writer is made: the schema decides", () => {
    const blocked = function noEval() {
      throw new EvalError("code generation from strings disallowed");
    };
    vi.stubGlobal("Function", blocked);
    try {
      const check = plainFormCheck(ContextQuerySchema);
      expect(check({ goal: "g", kinds: [], anchors: [], max_frames: 1, max_tokens: 1 })).toBe(
        false,
      );
      expect(wireWriter(ContextQuerySchema)).toBeUndefined();
    } finally {
      vi.unstubAllGlobals();
    }
    expect(
      plainFormCheck(ContextQuerySchema)({
        goal: "g",
        kinds: [],
        anchors: [],
        max_frames: 1,
        max_tokens: 1,
      }),
    ).toBe(true);
  });
});
