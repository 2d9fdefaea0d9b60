import { describe, expect, it } from "vitest";
import {
  decodeEnvelope,
  decodeLine,
  encodeLine,
  envelopeJsonSchema,
  toWire,
} from "../src/index.js";
import { compileSchema, fixture, referenceMessages, withoutLegacyEmpties } from "./helpers.js";

const ours = compileSchema(envelopeJsonSchema());
const theirs = compileSchema(JSON.parse(fixture("ocp-envelope.schema.json")) as object);

describe("reference test vectors", () => {
  const messages = referenceMessages();

  it("holds the seven reference messages and the five transcript lines", () => {
    expect(messages).toHaveLength(12);
  });

  it.each(messages.map((message, index) => [index, message]))(
    "message %i decodes, re-encodes to the reference's value and validates against both schemas",
    (_index, message) => {
      const decoded = decodeEnvelope(message);
      expect(decoded.ok).toBe(true);
      if (!decoded.ok) return;
      const wire = toWire(decoded.value);
      expect(wire).toEqual(withoutLegacyEmpties(message));
      expect(ours(message)).toBe(true);
      expect(ours(wire)).toBe(true);
      expect(theirs(message)).toBe(true);
    },
  );

  it("re-encodes the transcript byte for byte, but for the legacy null and [] the reference now omits", () => {
    const lines = fixture("full-stdio-session.ndjson").split("\n").filter(Boolean);
    for (const line of lines) {
      const decoded = decodeLine(line);
      expect(decoded.ok).toBe(true);
      if (!decoded.ok) continue;
      const expected = line
        .replaceAll(',"embeddings_fingerprint":null', "")
        .replaceAll(',"relations":[]', "");
      expect(encodeLine(decoded.value)).toBe(`${expected}\n`);
    }
  });

  it("the legacy forms are the only difference: null fingerprint and empty relations", () => {
    const differing = referenceMessages().filter((message) => {
      const decoded = decodeEnvelope(message);
      return decoded.ok && JSON.stringify(toWire(decoded.value)) !== JSON.stringify(message);
    });
    for (const message of differing) {
      const text = JSON.stringify(message);
      expect(
        text.includes('"embeddings_fingerprint":null') || text.includes('"relations":[]'),
      ).toBe(true);
    }
  });
});

type Mutation = [name: string, mutate: (messages: Record<string, unknown>[]) => unknown];

const framesOf = (messages: Record<string, unknown>[]) =>
  structuredClone(messages.find((m) => m.type === "frames")) as {
    result: { frames: Record<string, unknown>[] };
  };
const queryOf = (messages: Record<string, unknown>[]) =>
  structuredClone(messages.find((m) => m.type === "query")) as { query: Record<string, unknown> };

const mutations: Mutation[] = [
  [
    "score 1.5",
    (m) => {
      const f = framesOf(m);
      f.result.frames[0]!.score = 1.5;
      return f;
    },
  ],
  [
    "empty citation_label",
    (m) => {
      const f = framesOf(m);
      f.result.frames[0]!.citation_label = "";
      return f;
    },
  ],
  [
    "missing type",
    (m) => {
      const { type: _type, ...rest } = queryOf(m) as Record<string, unknown>;
      return rest;
    },
  ],
  ["version ocp/1", () => ({ type: "handshake", protocol_version: "ocp/1" })],
  [
    "max_tokens -1",
    (m) => {
      const q = queryOf(m);
      q.query.max_tokens = -1;
      return q;
    },
  ],
  [
    "max_tokens 2^32",
    (m) => {
      const q = queryOf(m);
      q.query.max_tokens = 4294967296;
      return q;
    },
  ],
  [
    "unknown kind",
    (m) => {
      const f = framesOf(m);
      f.result.frames[0]!.kind = "image";
      return f;
    },
  ],
];

describe("invalid mutations of the reference messages", () => {
  const messages = JSON.parse(fixture("reference-messages.json")) as Record<string, unknown>[];

  it.each(mutations)(
    "%s is rejected by our schema and by the reference schema",
    (_name, mutate) => {
      const mutated = mutate(messages);
      expect(ours(mutated)).toBe(false);
      expect(theirs(mutated)).toBe(false);
    },
  );

  it.each(
    mutations.filter(
      ([name]) => !["score 1.5", "empty citation_label", "version ocp/1"].includes(name),
    ),
  )("%s is also refused by the decoder with a typed error", (_name, mutate) => {
    const decoded = decodeEnvelope(mutate(messages));
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.error.code).toBe("invalid_envelope");
  });

  it("score 1.5, an empty citation label and a bad version string still decode, so the violation can be named", () => {
    for (const [, mutate] of mutations.filter(([name]) =>
      ["score 1.5", "empty citation_label", "version ocp/1"].includes(name),
    )) {
      expect(decodeEnvelope(mutate(messages)).ok).toBe(true);
    }
  });
});
