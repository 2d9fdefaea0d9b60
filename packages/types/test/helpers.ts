import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Ajv2020Module from "ajv/dist/2020.js";

type AjvClass = typeof Ajv2020Module.default;
const Ajv2020 = ((Ajv2020Module as unknown as { default?: AjvClass }).default ??
  Ajv2020Module) as AjvClass;

export function fixture(name: string): string {
  return readFileSync(
    fileURLToPath(new URL(`./fixtures/reference/${name}`, import.meta.url)),
    "utf8",
  );
}

export function repoFile(path: string): string {
  return readFileSync(fileURLToPath(new URL(`../../../${path}`, import.meta.url)), "utf8");
}

/** A validator for one JSON Schema (draft 2020-12) with ajv. */
export function compileSchema(schema: object): (value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const validate = ajv.compile(schema);
  return (value) => validate(value) as boolean;
}

/** The reference messages: every entry of the list and every line of the transcript. */
export function referenceMessages(): unknown[] {
  const list = JSON.parse(fixture("reference-messages.json")) as unknown[];
  const lines = fixture("full-stdio-session.ndjson")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as unknown);
  return [...list, ...lines];
}

/**
 * What the current reference writes for a message an earlier revision wrote:
 * `embeddings_fingerprint: null` and `relations: []` omitted.
 */
export function withoutLegacyEmpties(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutLegacyEmpties);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) {
      if (key === "embeddings_fingerprint" && member === null) continue;
      if (key === "relations" && Array.isArray(member) && member.length === 0) continue;
      out[key] = withoutLegacyEmpties(member);
    }
    return out;
  }
  return value;
}
