import { z } from "zod";
import { StrictEnvelopeSchema } from "./envelope.js";

/** The `$id` of the generated envelope schema. */
export const ENVELOPE_SCHEMA_ID = "https://ocp.dev/schema/ocp-envelope.schema.json";

/**
 * The JSON Schema (draft 2020-12) of one wire envelope, generated from the
 * conformance-level zod schema. It is what `schema/ocp-envelope.schema.json`
 * holds; a test fails when the checked-in file is stale.
 */
export function envelopeJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(StrictEnvelopeSchema, {
    target: "draft-2020-12",
    io: "input",
    unrepresentable: "throw",
  }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return { $schema, $id: ENVELOPE_SCHEMA_ID, ...rest };
}
