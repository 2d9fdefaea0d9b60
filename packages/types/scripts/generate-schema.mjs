#!/usr/bin/env node
// Writes schema/ocp-envelope.schema.json and schema/contextgraph-envelope.schema.json
// (repository root) from the zod schemas.
// Run after `pnpm build`; `test/schema.test.ts` and `test/cgp-schema.test.ts`
// fail when a file is stale.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { cgpEnvelopeJsonSchema } from "../dist/cgp/index.js";
import { envelopeJsonSchema } from "../dist/index.js";

for (const [name, schema] of [
  ["ocp-envelope.schema.json", envelopeJsonSchema()],
  ["contextgraph-envelope.schema.json", cgpEnvelopeJsonSchema()],
]) {
  const target = fileURLToPath(new URL(`../../../schema/${name}`, import.meta.url));
  writeFileSync(target, `${JSON.stringify(schema, null, 2)}\n`);
  console.log(`wrote ${target.split("/").slice(-2).join("/")}`);
}
