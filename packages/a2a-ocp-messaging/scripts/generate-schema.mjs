// Writes ../../schema/a2a-ocp-message.schema.json from the built zod schemas.
// Run `pnpm build` first (turbo's `generate` task depends on `build`).
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { messageJsonSchema } from "../dist/schemas.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const target = join(root, "schema", "a2a-ocp-message.schema.json");
writeFileSync(target, `${JSON.stringify(messageJsonSchema(), null, 2)}\n`);
console.error(`wrote ${target}`);
