import fc from "fast-check";
import { createMessage, KNOWN_MESSAGE_TYPES, type PlainMessage } from "../../src/index.js";
import { SAMPLE_PAYLOADS } from "./samples.js";

/** Well-formed (I-JSON) strings: whole graphemes, never a lone surrogate. */
export const text = fc.string({ unit: "grapheme", maxLength: 24 });

/** JSON values made of I-JSON strings. */
export const json = fc.jsonValue({ maxDepth: 3, stringUnit: "grapheme" });

export const agentUri = fc
  .stringMatching(/^[a-z0-9][a-z0-9.-]{0,20}$/)
  .map((name) => `a2a://${name}`);

export const recipients = fc.oneof(
  agentUri,
  fc.constant("broadcast"),
  fc.uniqueArray(agentUri, { minLength: 1, maxLength: 4 }),
);

/** Extension fields, org-prefixed as §11.2 asks. */
export const extensions = fc.dictionary(fc.stringMatching(/^acme_[a-z]{1,8}$/), json, {
  maxKeys: 3,
});

const envelopeOptions = fc.record(
  {
    ttl: fc.integer({ min: 1, max: 86_400 }),
    priority: fc.constantFrom("low", "normal", "high", "urgent" as const),
    correlation_id: fc.string({ minLength: 1, maxLength: 20, unit: "grapheme-ascii" }),
    reply_to: agentUri,
  },
  { requiredKeys: [] },
);

const unit = fc.double({ min: 0, max: 1, noNaN: true });
const id = fc.string({ minLength: 1, maxLength: 16, unit: "grapheme" });
const timestamp = fc
  .date({
    min: new Date("2000-01-01T00:00:00Z"),
    max: new Date("2099-12-31T00:00:00Z"),
    noInvalidDate: true,
  })
  .map((d) => d.toISOString());

/** §5.1.1 / §8.5 knowledge nodes with random content. */
export const knowledgeNode = fc.record(
  {
    id,
    type: id,
    title: text,
    description: text,
    data: json,
    confidence: unit,
    timestamp,
    createdBy: agentUri,
    tags: fc.array(text, { maxLength: 4 }),
    metadata: fc.dictionary(text, json, { maxKeys: 3 }),
    visibility: fc.constantFrom("private", "team", "workspace", "public" as const),
    sharedWith: fc.array(agentUri, { maxLength: 3 }),
  },
  { requiredKeys: ["id", "type", "title", "data", "confidence", "timestamp", "createdBy", "tags"] },
);

const edge = fc.record({ id, source: id, target: id, relationship: id, weight: unit });

/** Payloads with random content for a few types, valid by construction. */
const generatedPayload = fc.oneof(
  fc
    .record({
      streamId: id,
      nodes: fc.array(knowledgeNode, { maxLength: 3 }),
      edges: fc.array(edge, { maxLength: 3 }),
      isIncremental: fc.boolean(),
      sequenceNumber: fc.nat(),
    })
    .map((payload) => ({ type: "ocp.knowledge.stream" as const, payload })),
  fc
    .record({
      queryId: id,
      findings: fc.array(fc.record({ node: knowledgeNode, relevance: unit }), { maxLength: 2 }),
      confidence: unit,
      processingTime: fc.nat(),
    })
    .map((payload) => ({ type: "ocp.collective.response" as const, payload })),
  fc
    .record({ eventId: id, eventType: id, eventData: json, timestamp, source: agentUri })
    .map((payload) => ({ type: "ocp.event.publish" as const, payload })),
);

/**
 * Any valid plain message: a known type with a sample payload plus extensions,
 * a known type with generated content, or a custom type with any object.
 */
export const plainMessage: fc.Arbitrary<PlainMessage> = fc.oneof(
  fc
    .tuple(generatedPayload, agentUri, recipients, envelopeOptions)
    .map(([{ type, payload }, from, to, options]) =>
      createMessage({ type, from, to, payload: payload as never, ...options }),
    ),
  fc
    .tuple(
      fc.constantFrom(...KNOWN_MESSAGE_TYPES),
      agentUri,
      recipients,
      extensions,
      envelopeOptions,
    )
    .map(([type, from, to, ext, options]) =>
      createMessage({
        type,
        from,
        to,
        payload: { ...SAMPLE_PAYLOADS[type], ...ext } as never,
        ...options,
      }),
    ),
  fc
    .tuple(
      fc.stringMatching(/^[a-z][a-z0-9_-]{0,12}$/),
      agentUri,
      recipients,
      fc.dictionary(text, json, { maxKeys: 5 }),
      envelopeOptions,
    )
    .map(([name, from, to, payload, options]) =>
      createMessage({ type: `ocp.custom.${name}`, from, to, payload, ...options }),
    ),
);
