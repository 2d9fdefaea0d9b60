// Writes ../../schema/a2a-ocp-hub-frames.schema.json and
// ../../schema/a2a-ocp-connection-frames.schema.json from the built zod schemas.
// Run `pnpm build` first (turbo's `generate` task depends on `build`).
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { connectionFramesJsonSchema, hubFramesJsonSchema } from "../dist/frame-schemas.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
for (const [name, schema] of [
  ["a2a-ocp-hub-frames.schema.json", hubFramesJsonSchema()],
  ["a2a-ocp-connection-frames.schema.json", connectionFramesJsonSchema()],
]) {
  const target = join(root, "schema", name);
  writeFileSync(target, `${JSON.stringify(schema, null, 2)}\n`);
  console.error(`wrote ${target}`);
}
