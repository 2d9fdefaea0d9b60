import { toJsonSchema } from "@ocp/types/internal";
import { WireMessageSchema } from "./messages.js";

/** The `$id` of the generated message schema. */
export const MESSAGE_SCHEMA_ID = "https://ocp.dev/schema/a2a-ocp-message.schema.json";

/**
 * The JSON Schema (draft 2020-12) of one a2a+ocp message in any of its forms,
 * generated from the zod schemas. `schema/a2a-ocp-message.schema.json` holds
 * it; a test fails when the checked-in file is stale. Cross-field rules
 * (threshold with votingRule "threshold", minResponses ≤ maxResponses, unique
 * recipients) are zod refinements that JSON Schema does not carry.
 */
export function messageJsonSchema(): Record<string, unknown> {
  return toJsonSchema(WireMessageSchema, MESSAGE_SCHEMA_ID);
}
