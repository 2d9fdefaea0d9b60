import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { SIGNATURE_PATTERN } from "../src/envelope.js";
import { isPlainFastMessage } from "../src/fast-decode.js";
import {
  createMessage,
  decodeMessage,
  PROTOCOL_VERSION,
  versionsCompatible,
} from "../src/index.js";
import { schemaFor, semverMajor } from "../src/internal.js";
import {
  agentUri,
  extensions,
  json,
  knowledgeNode,
  recipients,
  text,
} from "./support/arbitraries.js";

// A bound per file for a few thousand schema passes, not a speed check.
vi.setConfig({ testTimeout: 60_000 });

type Obj = Record<string, unknown>;

/** What decodeMessage gave before the fast path: the schema of the value's form, then the version. */
function reference(value: unknown) {
  const parsed = schemaFor(value).safeParse(value);
  if (!parsed.success) return { ok: false, code: "invalid_message" } as const;
  const data = parsed.data as { version: string };
  if (!versionsCompatible(data.version, PROTOCOL_VERSION)) {
    return { ok: false, code: "incompatible_version" } as const;
  }
  return { ok: true, value: data } as const;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const key of Reflect.ownKeys(value)) deepFreeze((value as Obj)[key as string]);
    Object.freeze(value);
  }
  return value;
}

/** Sets an own, enumerable member as JSON.parse does, even one named `__proto__`. */
function setOwn(target: Obj, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

const unit = fc.double({ min: 0, max: 1, noNaN: true });
const id = fc.string({ minLength: 1, maxLength: 16, unit: "grapheme" });
const timestamp = fc.oneof(
  fc
    .date({ min: new Date("2000-01-01Z"), max: new Date("2099-12-31Z"), noInvalidDate: true })
    .map((d) => d.toISOString()),
  fc.constantFrom(
    "2026-10-13T10:25:00Z",
    "2026-10-13T10:25:00+02:00",
    "2024-02-29T00:00:00.5-11:30",
  ),
);
const edge = fc.record(
  {
    id,
    source: id,
    target: id,
    relationship: id,
    weight: unit,
    metadata: fc.dictionary(text, json),
  },
  { requiredKeys: ["id", "source", "target", "relationship", "weight"] },
);
const stream = fc.record(
  {
    batched: fc.constant(false),
    streamId: id,
    nodes: fc.array(knowledgeNode, { maxLength: 2 }),
    edges: fc.array(edge, { maxLength: 2 }),
    isIncremental: fc.boolean(),
    sequenceNumber: fc.nat(),
    checksum: id,
  },
  { requiredKeys: ["streamId", "nodes", "isIncremental", "sequenceNumber"] },
);
const partialNode = knowledgeNode.chain((node) =>
  fc
    .subarray(Object.keys(node))
    .map((keys) => Object.fromEntries(keys.map((k) => [k, (node as Obj)[k]]))),
);
const update = fc.record({
  updates: fc.array(
    fc.record({
      nodeId: id,
      changes: partialNode,
      changeType: fc.constantFrom("modified", "status_changed", "metadata_updated"),
    }),
    { maxLength: 2 },
  ),
  deletions: fc.array(id, { maxLength: 2 }),
  newEdges: fc.array(edge, { maxLength: 2 }),
  deletedEdges: fc.array(id, { maxLength: 2 }),
});
const responses = fc.integer({ min: 1, max: 5 });
const query = fc
  .record(
    {
      queryId: id,
      query: id,
      structuredQuery: fc.record(
        {
          intent: id,
          domains: fc.array(text, { maxLength: 2 }),
          keywords: fc.array(text, { maxLength: 2 }),
          filters: fc.dictionary(text, json, { maxKeys: 2 }),
        },
        { requiredKeys: ["intent", "domains", "keywords"] },
      ),
      timeout: fc.integer({ min: 1, max: 60_000 }),
      minResponses: responses,
      maxResponses: responses,
    },
    { requiredKeys: ["queryId", "query", "timeout"] },
  )
  .map((p) => {
    const { minResponses: min, maxResponses: max } = p;
    // A valid query has min ≤ max; the mutations break that now and then.
    return min !== undefined && max !== undefined && min > max
      ? { ...p, minResponses: max, maxResponses: min }
      : p;
  });
const response = fc.record(
  {
    queryId: id,
    findings: fc.array(
      fc.record(
        { node: knowledgeNode, relevance: unit, excerpt: text, context: text },
        { requiredKeys: ["node", "relevance"] },
      ),
      { maxLength: 2 },
    ),
    confidence: unit,
    processingTime: fc.oneof(fc.nat(), fc.double({ min: 0, max: 1e6, noNaN: true })),
    metadata: fc.record({
      nodesSearched: fc.nat(),
      relevanceScores: fc.array(unit, { maxLength: 3 }),
    }),
  },
  { requiredKeys: ["queryId", "findings", "confidence", "processingTime"] },
);
const beacon = fc.record(
  {
    status: fc.constantFrom("working", "blocked", "reviewing", "idle", "away"),
    currentContext: fc.record(
      { task: text, file: text, project: text, blockedOn: text },
      { requiredKeys: [] },
    ),
    availability: fc.constantFrom("available", "busy", "away"),
    metadata: fc.dictionary(text, json, { maxKeys: 2 }),
  },
  { requiredKeys: ["status", "availability"] },
);
const typed = fc.oneof(
  stream.map((payload) => ({ type: "ocp.knowledge.stream" as const, payload })),
  update.map((payload) => ({ type: "ocp.knowledge.update" as const, payload })),
  query.map((payload) => ({ type: "ocp.collective.query" as const, payload })),
  response.map((payload) => ({ type: "ocp.collective.response" as const, payload })),
  beacon.map((payload) => ({ type: "ocp.awareness.beacon" as const, payload })),
);
const signature = fc
  .uint8Array({ minLength: 64, maxLength: 64 })
  .map((bytes) => Buffer.from(bytes).toString("base64"));

/** Valid messages of the fast-path types, signed-looking, with extensions, as the wire carries them. */
const validMessage = fc
  .record({
    typed,
    from: agentUri,
    to: recipients,
    timestamp,
    version: fc.constantFrom(PROTOCOL_VERSION, "1.4.2", "1.0.0-rc.1+build.7", "2.0.0"),
    ttl: fc.integer({ min: 1, max: 86_400 }),
    priority: fc.constantFrom("low", "normal", "high", "urgent" as const),
    correlation_id: id,
    signature,
    extensions,
    payloadExtensions: extensions,
    invert: fc.nat({ max: 5 }),
  })
  .map(
    ({
      typed: { type, payload },
      signature: sig,
      extensions: ext,
      payloadExtensions,
      invert,
      ...rest
    }) => {
      const message = createMessage({
        type,
        payload: { ...payload, ...payloadExtensions } as never,
        ...rest,
      });
      const wire = { ...message, ...ext, signature: sig } as Obj;
      const p = wire["payload"] as Obj;
      // Now and then a query whose only fault is its refinement: minResponses > maxResponses.
      if (
        invert === 0 &&
        p["minResponses"] !== undefined &&
        p["minResponses"] !== p["maxResponses"]
      ) {
        wire["payload"] = {
          ...p,
          minResponses: p["maxResponses"],
          maxResponses: p["minResponses"],
        };
      }
      return JSON.stringify(wire);
    },
  );

/** Values that are nearly right for some member: wrong type, null, empty, out of range, malformed. */
const wrong = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    "",
    0,
    -1,
    1.5,
    2,
    2 ** 53,
    -0,
    true,
    false,
    [],
    {},
    "x",
    undefined,
  ),
  fc.constantFrom<unknown>(
    "a2a://",
    "a2a://a b",
    "broadcast",
    `a2a://${"a".repeat(600)}`,
    "1.0",
    "01.0.0",
  ),
  fc.constantFrom<unknown>("2026-02-30T00:00:00Z", "2026-10-13T10:25:00", "2026-10-13t10:25:00z"),
  fc.constantFrom<unknown>(
    "6f1c4b1e-2d3a-1b4c-8d9e-0f1a2b3c4d5e",
    "6F1C4B1E-2D3A-4B4C-8D9E-0F1A2B3C4D5E",
  ),
  fc.constantFrom<unknown>(
    "x".repeat(257),
    `${"A".repeat(86)}=`,
    `${"A".repeat(85)}===`,
    `${"A".repeat(86)}==\n`,
  ),
  fc.constantFrom<unknown>(`${"A".repeat(84)}==`, `${"A".repeat(88)}==`),
  fc.constantFrom<unknown>("ocp.custom.x", "ocp.knowledge.sync.request", "gzip", "AES-256-GCM"),
  fc.constantFrom<unknown>(Number.POSITIVE_INFINITY, Number.NaN, "working", "busy", "modified"),
  signature.map((s) => s.replace(/^./, "-")),
  json,
);

type Mutation = { at: number; kind: "set" | "delete" | "add" | "proto"; value: unknown };
const mutation = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom("set", "set", "set", "delete", "add", "proto" as const),
  value: wrong,
});

/** Every (container, key) member inside `value`, in a stable order. */
/** The message `createMessage` makes of `init`, as parsed from its JSON (after `edit`). */
function parsedWire(init: Parameters<typeof createMessage>[0], edit = (text: string) => text): Obj {
  return JSON.parse(edit(JSON.stringify(createMessage(init)))) as Obj;
}

const EMPTY_UPDATE = {
  type: "ocp.knowledge.update",
  from: "a2a://alice",
  to: "broadcast",
  payload: { updates: [], deletions: [], newEdges: [], deletedEdges: [] },
} as const;

function members(value: unknown, out: [Obj, string][] = []): [Obj, string][] {
  if (typeof value !== "object" || value === null) return out;
  for (const key of Object.keys(value)) {
    out.push([value as Obj, key]);
    members((value as Obj)[key], out);
  }
  return out;
}

function mutate(value: Obj, { at, kind, value: shared }: Mutation): void {
  // The generator's objects (`{}`, `[]`) are shared between runs, and the property freezes what
  // it checks: each mutation inserts its own copy, or a later run would write to a frozen one.
  const replacement = structuredClone(shared);
  const all = members(value);
  const [container, key] = all[at % all.length] as [Obj, string];
  const inner = container[key];
  // A member is added to an object (the member's own value, else its container), never to an array.
  const target = isRecord(inner) ? inner : isRecord(container) ? container : undefined;
  if (kind === "delete") delete container[key];
  else if (kind === "set" || target === undefined) container[key] = replacement;
  else setOwn(target, kind === "proto" ? "__proto__" : "acme_extra", replacement);
}
const isRecord = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Mostly valid messages: a third as they are, the rest with one to three members made nearly right. */
const nearValid = fc
  .tuple(validMessage, fc.array(mutation, { maxLength: 3 }), fc.nat({ max: 2 }))
  .map(([wire, mutations, keep]) => {
    const value = JSON.parse(wire) as Obj;
    if (keep !== 0) for (const m of mutations) mutate(value, m);
    return value;
  });

describe("the plain-form fast path of decodeMessage", () => {
  it("gives the schema's verdict, error code and value on near-valid messages, and never writes", () => {
    let fast = 0;
    let refused = 0;
    fc.assert(
      fc.property(nearValid, (value) => {
        const before = structuredClone(value);
        deepFreeze(value); // a write would throw (modules are strict)
        const expected = reference(value);
        const taken = isPlainFastMessage(value);
        const decoded = decodeMessage(value);
        if (taken) {
          fast++;
          expect(schemaFor(value).safeParse(value).success).toBe(true);
          if (decoded.ok) expect(decoded.value).toBe(value); // taken as it is
        }
        if (!expected.ok) refused++;
        expect(decoded.ok).toBe(expected.ok);
        if (decoded.ok && expected.ok) expect(decoded.value).toStrictEqual(expected.value);
        if (!decoded.ok && !expected.ok) expect(decoded.error.code).toBe(expected.code);
        expect(value).toStrictEqual(before);
      }),
      { numRuns: 4000 },
    );
    // Neither side of the property is vacuous.
    expect(fast).toBeGreaterThan(300);
    expect(refused).toBeGreaterThan(300);
  });

  it("takes the hub bench's durable direct message as it is", () => {
    const wire = JSON.parse(
      JSON.stringify({
        ...createMessage({
          type: "ocp.knowledge.stream",
          from: "a2a://alice",
          to: "a2a://bob",
          ttl: 300,
          payload: {
            streamId: "bench",
            nodes: [
              {
                id: "n-1",
                type: "code.solution",
                title: "WebSocket memory leak fix",
                data: { code: "ws.on('close', () => {})", pad: "x".repeat(300) },
                confidence: 0.9,
                timestamp: new Date().toISOString(),
                createdBy: "a2a://alice",
                tags: ["websocket"],
              },
            ],
            isIncremental: true,
            sequenceNumber: 1,
          },
        }),
        signature: `${"A".repeat(86)}==`,
      }),
    );
    expect(isPlainFastMessage(wire)).toBe(true);
    const decoded = decodeMessage(wire);
    expect(decoded.ok && decoded.value).toBe(wire);
  });

  it("leaves a member named __proto__ to the schema, which drops it", () => {
    const wire = parsedWire(EMPTY_UPDATE, (text) =>
      text.replace('"deletions"', '"__proto__":{"polluted":true},"deletions"'),
    );
    expect(Object.hasOwn(wire["payload"] as Obj, "__proto__")).toBe(true);
    expect(isPlainFastMessage(wire)).toBe(false);
    const decoded = decodeMessage(wire);
    expect(decoded.ok).toBe(true);
    if (decoded.ok) {
      expect(Object.hasOwn(decoded.value.payload as Obj, "__proto__")).toBe(false);
      expect(({} as Obj)["polluted"]).toBeUndefined();
    }
  });

  it("checks a signature's form as SIGNATURE_PATTERN does", () => {
    const alphabet = [..."ABCXYZabcxyz0189+/=-_ \n"];
    const candidate = fc.oneof(
      signature,
      fc.string({ unit: fc.constantFrom(...alphabet), minLength: 84, maxLength: 92 }),
      fc
        .tuple(signature, fc.nat({ max: 87 }), fc.constantFrom(...alphabet))
        .map(([s, i, c]) => s.slice(0, i) + c + s.slice(i + 1)),
      fc
        .tuple(signature, fc.integer({ min: -4, max: 4 }))
        .map(([s, d]) => (d < 0 ? s.slice(-d) : "A".repeat(d) + s)),
    );
    const base = parsedWire(EMPTY_UPDATE);
    fc.assert(
      fc.property(candidate, (sig) => {
        expect(isPlainFastMessage({ ...base, signature: sig })).toBe(SIGNATURE_PATTERN.test(sig));
      }),
      { numRuns: 2000 },
    );
    expect(semverMajor(PROTOCOL_VERSION)).toBe(1);
  });

  it("refuses what JSON cannot carry but memory can, as the schema does: NaN, infinities, undefined", () => {
    const base = createMessage({
      type: "ocp.collective.response",
      from: "a2a://alice",
      to: "a2a://bob",
      payload: { queryId: "q", findings: [], confidence: 0.5, processingTime: 12 },
    }) as Obj;
    const payload = base["payload"] as Obj;
    expect(isPlainFastMessage(base)).toBe(true);
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, undefined]) {
      for (const key of ["processingTime", "confidence"]) {
        const value = { ...base, payload: { ...payload, [key]: bad } };
        expect(isPlainFastMessage(value)).toBe(false);
        const decoded = decodeMessage(value);
        expect(decoded.ok).toBe(false);
        if (!decoded.ok) expect(decoded.error.code).toBe("invalid_message");
      }
    }
  });

  it("takes a batched stream too (its check is compiled from the stream schema), and leaves other forms to the schema", () => {
    const wire = parsedWire({
      type: "ocp.knowledge.stream",
      from: "a2a://alice",
      to: "a2a://bob",
      payload: {
        batched: true,
        items: [{ streamId: "s", nodes: [], isIncremental: false, sequenceNumber: 0 }],
      },
    });
    expect(isPlainFastMessage(wire)).toBe(true);
    expect(decodeMessage(wire)).toEqual(reference(wire));
    for (const extra of [{ encrypted: true }, { compression: "gzip" }, { type: "ocp.custom.x" }]) {
      expect(isPlainFastMessage({ ...wire, ...extra })).toBe(false);
    }
  });
});
