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

/** Any valid plain message: a known type with a sample payload plus extensions, or a custom type with any object. */
export const plainMessage: fc.Arbitrary<PlainMessage> = fc.oneof(
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
