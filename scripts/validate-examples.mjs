#!/usr/bin/env node
// Validates every example transcript: each line must decode with @ocp/types
// and validate against the checked-in JSON Schema of its protocol.
// Usage: node scripts/validate-examples.mjs   (after `pnpm build`)
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { decodeCgpLine } from "../packages/types/dist/cgp/index.js";
import { decodeLine } from "../packages/types/dist/index.js";

const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;
const addFormats = addFormatsModule.default ?? addFormatsModule;
const compile = (schemaValue) => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(schemaValue);
};
const root = fileURLToPath(new URL("..", import.meta.url));
const schema = (name) => JSON.parse(readFileSync(join(root, "schema", name), "utf8"));

let checked = 0;
const failures = [];

const ocp = compile(schema("ocp-envelope.schema.json"));
const ocpDir = join(root, "examples", "ocp");
for (const file of readdirSync(ocpDir)
  .filter((f) => f.endsWith(".ndjson"))
  .sort()) {
  const lines = readFileSync(join(ocpDir, file), "utf8")
    .split("\n")
    .filter((l) => l !== "");
  lines.forEach((line, index) => {
    checked++;
    const where = `examples/ocp/${file}:${index + 1}`;
    const decoded = decodeLine(line);
    if (!decoded.ok) failures.push(`${where}: ${decoded.error.message}`);
    else if (!ocp(JSON.parse(line))) failures.push(`${where}: ${JSON.stringify(ocp.errors)}`);
  });
}

// contextgraph/1.0-draft examples: decoded on the interop path, validated
// against the generated authoring-strict schema.
const cgp = compile(schema("contextgraph-envelope.schema.json"));
const cgpDir = join(root, "examples", "contextgraph");
for (const file of readdirSync(cgpDir)
  .filter((f) => f.endsWith(".ndjson"))
  .sort()) {
  const lines = readFileSync(join(cgpDir, file), "utf8")
    .split("\n")
    .filter((l) => l !== "");
  lines.forEach((line, index) => {
    checked++;
    const where = `examples/contextgraph/${file}:${index + 1}`;
    const decoded = decodeCgpLine(line);
    if (!decoded.ok) failures.push(`${where}: ${decoded.error}`);
    else if (decoded.envelope.type === "unknown") failures.push(`${where}: unknown envelope type`);
    else if (!cgp(JSON.parse(line))) failures.push(`${where}: ${JSON.stringify(cgp.errors)}`);
  });
}

// a2a+ocp examples are validated against their schema when the package that
// generates it is present.
const a2aSchema = join(root, "schema", "a2a-ocp-message.schema.json");
const a2aDir = join(root, "examples", "a2a-ocp");
if (existsSync(a2aSchema) && existsSync(a2aDir)) {
  const a2a = compile(schema("a2a-ocp-message.schema.json"));
  for (const file of readdirSync(a2aDir)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    checked++;
    const value = JSON.parse(readFileSync(join(a2aDir, file), "utf8"));
    if (!a2a(value)) failures.push(`examples/a2a-ocp/${file}: ${JSON.stringify(a2a.errors)}`);
  }
}

for (const failure of failures) console.error(`✗ ${failure}`);
console.log(`examples: ${checked - failures.length} passed, ${failures.length} failed`);
process.exit(failures.length === 0 ? 0 : 1);
