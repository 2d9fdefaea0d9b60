#!/usr/bin/env node
// Writes schema/ocp-envelope.schema.json (repository root) from the zod schemas.
// Run after `pnpm build`; `test/schema.test.ts` fails when the file is stale.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { envelopeJsonSchema } from "../dist/index.js";

const target = fileURLToPath(new URL("../../../schema/ocp-envelope.schema.json", import.meta.url));
writeFileSync(target, `${JSON.stringify(envelopeJsonSchema(), null, 2)}\n`);
console.log(`wrote ${target.split("/").slice(-2).join("/")}`);
