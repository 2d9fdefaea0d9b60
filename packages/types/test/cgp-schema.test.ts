import { describe, expect, it } from "vitest";
import { CGP_ENVELOPE_SCHEMA_ID, cgpEnvelopeJsonSchema } from "../src/cgp/index.js";
import { repoFile } from "./helpers.js";

describe("schema/contextgraph-envelope.schema.json", () => {
  it("is exactly what the zod schemas generate (run `pnpm generate` after changing them)", () => {
    const checkedIn = JSON.parse(repoFile("schema/contextgraph-envelope.schema.json")) as unknown;
    expect(checkedIn).toEqual(cgpEnvelopeJsonSchema());
  });

  it("defines every envelope and payload upstream's schema defines, under the same names", () => {
    const upstream = JSON.parse(
      repoFile(
        "packages/types/test/vectors/contextgraph-1.0-draft/contextgraph-envelope.schema.json",
      ),
    ) as { $defs: Record<string, unknown> };
    const ours = Object.keys(cgpEnvelopeJsonSchema().$defs as object);
    // upstream's nullable wrappers (u32, u32Nullable, FrameEmbeddingNullable) are inlined by zod
    const named = Object.keys(upstream.$defs).filter((n) => !/^u32|Nullable$/.test(n));
    for (const name of named) expect(ours, name).toContain(name);
    expect(cgpEnvelopeJsonSchema().$id).toBe(CGP_ENVELOPE_SCHEMA_ID);
  });
});
