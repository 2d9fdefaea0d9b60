import { describe, expect, it } from "vitest";
import { envelopeJsonSchema } from "../src/index.js";
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
