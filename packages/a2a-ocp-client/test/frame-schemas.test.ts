import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { HUB_TYPES } from "@ocp/a2a-ocp-messaging/internal";
import { CONTROL_TYPES } from "@ocp/transport-ws";
import { describe, expect, it } from "vitest";
import { connectionFramesJsonSchema, hubFramesJsonSchema } from "../src/frame-schemas.js";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const committed = (name: string) => readFileSync(join(root, "schema", name), "utf8");
const text = (schema: Record<string, unknown>) => `${JSON.stringify(schema, null, 2)}\n`;

/** The `type` constants of a generated union, in order. */
function frameTypes(schema: Record<string, unknown>): string[] {
  const members = schema["oneOf"] as Array<{ properties: { type: { const: string } } }>;
  return members.map((m) => m.properties.type.const);
}

describe("generated JSON Schemas of the hub and connection frames", () => {
  it("schema/a2a-ocp-hub-frames.schema.json is up to date (run `pnpm generate`)", () => {
    expect(committed("a2a-ocp-hub-frames.schema.json")).toBe(text(hubFramesJsonSchema()));
  });

  it("schema/a2a-ocp-connection-frames.schema.json is up to date (run `pnpm generate`)", () => {
    expect(committed("a2a-ocp-connection-frames.schema.json")).toBe(
      text(connectionFramesJsonSchema()),
    );
  });

  it("cover every frame type, each once", () => {
    expect(frameTypes(hubFramesJsonSchema()).sort()).toEqual(Object.values(HUB_TYPES).sort());
    expect(frameTypes(connectionFramesJsonSchema()).sort()).toEqual(
      Object.values(CONTROL_TYPES).sort(),
    );
  });
});
