import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CgpStrictEnvelopeSchema,
  canonicalJson,
  canonicalTokenCost,
  cgpEnvelopeJsonSchema,
  cgpFrameViolations,
  decodeCgpEnvelope,
  decodeCgpLine,
  encodeCgpLine,
  sha256Digest,
} from "../src/cgp/index.js";
import { compileSchema } from "./helpers.js";

const anyText = fc.string({ unit: "binary", maxLength: 300 });

describe("byte rules, against independent implementations", () => {
  it("B3: canonicalTokenCost is ceil(TextEncoder bytes / 4) for any string, lone surrogates included", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(canonicalTokenCost(text)).toBe(Math.ceil(new TextEncoder().encode(text).length / 4));
      }),
    );
  });

  it("sha256Digest agrees with node:crypto on any bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(sha256Digest(bytes)).toBe(
          `sha256:${createHash("sha256").update(bytes).digest("hex")}`,
        );
      }),
    );
  });

  it("canonicalJson of any JSON value parses back to the value, with members sorted", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(canonicalJson(JSON.parse(text))).toBe(text);
      }),
    );
  });
});

describe("the interop decoder never throws (R1, U1, U2)", () => {
  it("any JSON value decodes to an envelope or a typed failure", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const decoded = decodeCgpEnvelope(value);
        expect(typeof decoded.ok).toBe("boolean");
        if (!decoded.ok) expect(decoded.error).toEqual(expect.any(String));
      }),
    );
  });

  it("any line decodes to an envelope or a typed failure", () => {
    fc.assert(
      fc.property(anyText, (line) => {
        const decoded = decodeCgpLine(line);
        if (!decoded.ok)
          expect(["invalid_json", "invalid_envelope", "embedded_newline"]).toContain(
            decoded.reason,
          );
      }),
    );
  });

  it("an honest frame with any content keeps every frame rule, and its envelope encodes to a line our schema accepts", () => {
    const validate = compileSchema(cgpEnvelopeJsonSchema());
    fc.assert(
      fc.property(anyText, fc.double({ min: 0, max: 1, noNaN: true }), (content, score) => {
        const frame = {
          id: "f",
          kind: "doc",
          title: "t",
          content,
          content_digest: sha256Digest(content),
          score,
          token_cost: canonicalTokenCost(content),
          citation_label: "l",
        };
        expect(cgpFrameViolations(frame)).toEqual([]);
        const line = encodeCgpLine({
          type: "frames",
          result: { frames: [frame], truncated: false },
        });
        const value = JSON.parse(line) as unknown;
        expect(validate(value)).toBe(true);
        expect(CgpStrictEnvelopeSchema.safeParse(value).success).toBe(true);
        expect(decodeCgpLine(line).ok).toBe(true);
      }),
    );
  });
});
