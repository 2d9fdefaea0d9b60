import { readFileSync } from "node:fs";

/**
 * The Rust reference's published JSON Schema of the envelope
 * (`reference/ocp-envelope.schema.json` of this package, draft 2020-12),
 * verbatim: every object closed (`additionalProperties: false`), so none of
 * our extensions validates against it. S1 holds a plain peer's traffic to it;
 * a test pins the file to the reference's.
 */
export const REFERENCE_ENVELOPE_SCHEMA: Record<string, unknown> = JSON.parse(
  readFileSync(new URL("../reference/ocp-envelope.schema.json", import.meta.url), "utf8"),
);
