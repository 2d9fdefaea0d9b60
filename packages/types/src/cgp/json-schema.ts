import { toJsonSchema } from "../json-schema.js";
import { CgpStrictEnvelopeSchema } from "./envelope.js";

/** The `$id` of the generated `contextgraph/1.0-draft` envelope schema. */
export const CGP_ENVELOPE_SCHEMA_ID = "https://ocp.dev/schema/contextgraph-envelope.schema.json";

/**
 * §6.4, P1–P3 as upstream's published schema states them: the members each
 * representation requires or forbids, as `allOf` conditionals (zod's JSON
 * Schema output does not carry refinements, so they are added here).
 */
/** One JSON Schema `if`/`then` conditional. */
function conditional(comment: string, condition: object, consequence: object): object {
  // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword, in plain data.
  return { $comment: comment, if: condition, then: consequence };
}

const REPRESENTATION_CONDITIONALS = [
  conditional(
    "reference: content_ref and canonical_content_hash; no content, content_digest or transform (P3).",
    { properties: { representation: { const: "reference" } }, required: ["representation"] },
    {
      required: ["content_ref", "canonical_content_hash"],
      not: {
        anyOf: [
          { required: ["content"] },
          { required: ["content_digest"] },
          { required: ["transform"] },
        ],
      },
    },
  ),
  conditional(
    "compact: inline content, its digest, the canonical hash, the transform and the handle (P2).",
    { properties: { representation: { const: "compact" } }, required: ["representation"] },
    {
      required: ["content", "content_digest", "canonical_content_hash", "transform", "content_ref"],
    },
  ),
  conditional(
    "full, or no representation member: inline content (P1).",
    {
      not: {
        properties: { representation: { enum: ["compact", "reference"] } },
        required: ["representation"],
      },
    },
    { required: ["content"] },
  ),
];

/**
 * The JSON Schema (draft 2020-12) of one `contextgraph/1.0-draft` envelope,
 * authoring-strict (`additionalProperties: false`), generated from
 * {@link CgpStrictEnvelopeSchema}. It is what
 * `schema/contextgraph-envelope.schema.json` holds; a test fails when the
 * checked-in file is stale.
 */
export function cgpEnvelopeJsonSchema(): Record<string, unknown> {
  const schema = toJsonSchema(CgpStrictEnvelopeSchema, CGP_ENVELOPE_SCHEMA_ID);
  const defs = schema.$defs as Record<string, Record<string, unknown>> | undefined;
  const frame = defs?.ContextFrame;
  if (frame === undefined) throw new Error("the generated schema has no ContextFrame definition");
  frame.allOf = REPRESENTATION_CONDITIONALS;
  return schema;
}
