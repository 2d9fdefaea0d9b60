import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromBase64, toBase64 } from "../src/base64.js";

describe("base64 without Buffer", () => {
  it("encodes exactly as Buffer does, on both paths (table up to 4096 bytes, btoa beyond), and round-trips", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 9000 }), (bytes) => {
        const text = toBase64(bytes);
        expect(text).toBe(Buffer.from(bytes).toString("base64"));
        expect(fromBase64(text)).toEqual(bytes);
      }),
      { numRuns: 300 },
    );
    for (const length of [0, 1, 2, 3, 4095, 4096, 4097]) {
      const bytes = new Uint8Array(length).map((_, i) => (i * 37) & 255);
      expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString("base64"));
    }
  });
});
