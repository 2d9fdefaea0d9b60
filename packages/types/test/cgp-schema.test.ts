import { describe, expect, it } from "vitest";
import {
  CGP_ENVELOPE_SCHEMA_ID,
  CgpStrictEnvelopeSchema,
  cgpEnvelopeJsonSchema,
} from "../src/cgp/index.js";
import { compileSchema, repoFile } from "./helpers.js";

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

describe("our generated schema and upstream's agree on the representation rules (P1–P3)", () => {
  const upstream = compileSchema(
    JSON.parse(
      repoFile(
        "packages/types/test/vectors/contextgraph-1.0-draft/contextgraph-envelope.schema.json",
      ),
    ) as object,
  );
  const ours = compileSchema(cgpEnvelopeJsonSchema());
  const hash = `sha256:${"c".repeat(64)}`;
  const base = { id: "f", kind: "doc", title: "t", score: 0.5, token_cost: 0, citation_label: "l" };
  const ref = { provider_id: "p", uri: "context://p/1" };
  const transform = { method: "m", implementation: "i", version: "1" };
  const envelope = (frame: object) => ({
    type: "frames",
    result: { frames: [frame], truncated: false },
  });
  const cases: [string, object, boolean][] = [
    ["a full frame with content", { ...base, content: "" }, true],
    ["a frame with no representation and no content", base, false],
    [
      "a reference frame with its handle and hash",
      { ...base, representation: "reference", content_ref: ref, canonical_content_hash: hash },
      true,
    ],
    [
      "a reference frame carrying content",
      {
        ...base,
        representation: "reference",
        content_ref: ref,
        canonical_content_hash: hash,
        content: "",
      },
      false,
    ],
    [
      "a reference frame without its hash",
      { ...base, representation: "reference", content_ref: ref },
      false,
    ],
    [
      "a compact frame with everything",
      {
        ...base,
        representation: "compact",
        content: "c",
        content_digest: hash,
        canonical_content_hash: hash,
        transform,
        content_ref: ref,
      },
      true,
    ],
    [
      "a compact frame without its transform",
      {
        ...base,
        representation: "compact",
        content: "c",
        content_digest: hash,
        canonical_content_hash: hash,
        content_ref: ref,
      },
      false,
    ],
    ["a frame with an unknown member", { ...base, content: "", future_field: 1 }, false],
  ];
  for (const [what, frame, valid] of cases) {
    it(`${what}: ${valid ? "valid" : "invalid"} in both, and in CgpStrictEnvelopeSchema`, () => {
      expect(upstream(envelope(frame))).toBe(valid);
      expect(ours(envelope(frame))).toBe(valid);
      expect(CgpStrictEnvelopeSchema.safeParse(envelope(frame)).success).toBe(valid);
    });
  }
});
