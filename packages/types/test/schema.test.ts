import { describe, expect, it } from "vitest";
import { z } from "zod";
import { envelopeJsonSchema } from "../src/index.js";
import { toJsonSchema } from "../src/internal.js";
import { repoFile } from "./helpers.js";

describe("schema/ocp-envelope.schema.json", () => {
  it("is exactly what the zod schemas generate (run `pnpm generate` after changing them)", () => {
    const checkedIn = JSON.parse(repoFile("schema/ocp-envelope.schema.json")) as unknown;
    expect(checkedIn).toEqual(envelopeJsonSchema());
  });

  it("defines every envelope variant and payload under $defs", () => {
    const defs = Object.keys(envelopeJsonSchema().$defs as object);
    for (const name of [
      "Handshake",
      "HandshakeAck",
      "Query",
      "Frames",
      "Shutdown",
      "Error",
      "ProviderInfo",
      "DataFlow",
      "Capabilities",
      "QueryCapability",
      "ContextQuery",
      "ContextQueryResult",
      "ContextFrame",
      "FrameKind",
      "Provenance",
      "Relation",
      "FrameEmbedding",
      "versionString",
    ]) {
      expect(defs).toContain(name);
    }
  });
});

describe("toJsonSchema", () => {
  it("generates draft 2020-12 for the input side, with $id right after $schema", () => {
    const schema = toJsonSchema(
      z.object({ n: z.number().int().default(1) }),
      "https://example.test/n.json",
    );
    expect(Object.keys(schema).slice(0, 2)).toEqual(["$schema", "$id"]);
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.$id).toBe("https://example.test/n.json");
    expect(schema.required ?? []).not.toContain("n");
  });

  it("throws on what JSON Schema cannot represent instead of leaving it out", () => {
    expect(() => toJsonSchema(z.object({ at: z.date() }), "https://example.test/d.json")).toThrow();
  });
});
