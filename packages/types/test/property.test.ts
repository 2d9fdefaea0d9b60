import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeEnvelope,
  decodeLine,
  type EnvelopeInit,
  encodeLine,
  envelopeJsonSchema,
  FRAME_KINDS,
  OcpError,
  toWire,
} from "../src/index.js";
import { U32_MAX } from "../src/internal.js";
import { compileSchema } from "./helpers.js";

const u32 = fc.integer({ min: 0, max: U32_MAX });
const text = fc.string({ unit: "grapheme", maxLength: 40 });
const nonEmpty = fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 });
const kind = fc.constantFrom(...FRAME_KINDS);
const version = fc
  .tuple(fc.nat({ max: 20 }), fc.nat({ max: 20 }), fc.boolean())
  .map(([major, minor, draft]) => `ocp/${major}.${minor}${draft ? "-draft" : ""}`);
const finite = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });

const provenance = fc.record(
  { type: nonEmpty, uri: text, range: text, digest: text, method: text, by: text },
  { requiredKeys: ["type"] },
);
const relation = fc.record(
  { rel: nonEmpty, target_uri: nonEmpty, display_name: text },
  { requiredKeys: ["rel", "target_uri"] },
);
const frame = fc.record(
  {
    id: nonEmpty,
    kind,
    title: nonEmpty,
    content: fc.string({ unit: "binary", maxLength: 200 }),
    uri: text,
    score: fc.double({ min: 0, max: 1, noNaN: true }),
    token_cost: u32,
    valid_from: text,
    valid_to: text,
    recorded_at: text,
    provenance: fc.array(provenance, { maxLength: 3 }),
    citation_label: nonEmpty,
    embedding: fc.record(
      { fingerprint: nonEmpty, vector: fc.array(finite, { maxLength: 4 }) },
      { requiredKeys: ["fingerprint"] },
    ),
    relations: fc.array(relation, { maxLength: 3 }),
  },
  { requiredKeys: ["id", "kind", "title", "content", "score", "token_cost"] },
);
const query = fc.record(
  {
    goal: nonEmpty,
    query_text: text,
    embedding: fc.array(finite, { maxLength: 4 }),
    kinds: fc.uniqueArray(kind),
    anchors: fc.array(text, { maxLength: 3 }),
    max_frames: u32,
    max_tokens: u32,
    as_of: text,
  },
  { requiredKeys: ["goal", "max_frames", "max_tokens"] },
);
const correlation = fc.string({ minLength: 1, maxLength: 128 });

const envelope: fc.Arbitrary<EnvelopeInit> = fc.oneof(
  fc.record({ type: fc.constant("handshake" as const), protocol_version: version }),
  fc.record({
    type: fc.constant("handshake_ack" as const),
    protocol_version: version,
    provider: fc.record({
      name: nonEmpty,
      version: nonEmpty,
      data_flow: fc.record({ reads: fc.boolean(), writes: fc.boolean(), egress: fc.boolean() }),
    }),
    capabilities: fc.record(
      {
        query: fc.record({
          kinds: fc.array(text, { maxLength: 3 }),
          filters: fc.array(text, { maxLength: 3 }),
        }),
        upsert: fc.boolean(),
        graph: fc.boolean(),
        embeddings_fingerprint: text,
        subscribe: fc.boolean(),
        correlation: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
  }),
  fc.record(
    { type: fc.constant("query" as const), id: correlation, query },
    { requiredKeys: ["type", "query"] },
  ),
  fc.record(
    {
      type: fc.constant("frames" as const),
      id: correlation,
      result: fc.record(
        {
          frames: fc.array(frame, { maxLength: 4 }),
          truncated: fc.boolean(),
          dropped_estimate: u32,
        },
        { requiredKeys: ["frames", "truncated"] },
      ),
    },
    { requiredKeys: ["type", "result"] },
  ),
  fc.constant({ type: "shutdown" as const }),
  fc.record(
    { type: fc.constant("error" as const), id: correlation, code: text, message: nonEmpty },
    { requiredKeys: ["type", "message"] },
  ),
);

/** Generous: hundreds of runs each, on a CI machine that may be busy. */
const PROPERTY_TIMEOUT_MS = 60_000;

const conformant = compileSchema(envelopeJsonSchema());

describe("property: any valid envelope", () => {
  it(
    "encodes to one line that decodes and re-encodes to the same bytes",
    () => {
      fc.assert(
        fc.property(envelope, (value) => {
          const line = encodeLine(value);
          expect(line.indexOf("\n")).toBe(line.length - 1);
          const decoded = decodeLine(line);
          expect(decoded.ok).toBe(true);
          if (decoded.ok) expect(encodeLine(decoded.value)).toBe(line);
        }),
        { numRuns: 400 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    "validates against the generated JSON Schema once encoded",
    () => {
      fc.assert(
        fc.property(envelope, (value) => {
          expect(conformant(toWire(value))).toBe(true);
        }),
        { numRuns: 300 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});

describe("property: decoding never throws", () => {
  const expectTyped = (result: ReturnType<typeof decodeLine>) => {
    if (!result.ok) {
      expect(result.error).toBeInstanceOf(OcpError);
      expect(["invalid_json", "invalid_envelope", "embedded_newline"]).toContain(result.error.code);
    }
  };

  it(
    "any string fed to decodeLine returns a value or a typed error",
    () => {
      fc.assert(
        fc.property(fc.string({ unit: "binary", maxLength: 300 }), (line) => {
          expectTyped(decodeLine(line));
        }),
        { numRuns: 1000 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    "any JSON text fed to decodeLine returns a value or a typed error",
    () => {
      fc.assert(
        fc.property(fc.json({ maxDepth: 4 }), (line) => {
          expectTyped(decodeLine(line));
        }),
        { numRuns: 1000 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    "any mutation of a valid envelope's JSON value decodes or fails typed",
    () => {
      fc.assert(
        fc.property(envelope, fc.jsonValue({ maxDepth: 2 }), fc.nat(), (value, junk, pick) => {
          const wire = toWire(value) as Record<string, unknown>;
          const keys = Object.keys(wire);
          const key = keys[pick % keys.length] ?? "type";
          expectTyped(decodeLine(JSON.stringify({ ...wire, [key]: junk })));
          expect(() => decodeEnvelope({ ...wire, [key]: junk })).not.toThrow();
        }),
        { numRuns: 500 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});
