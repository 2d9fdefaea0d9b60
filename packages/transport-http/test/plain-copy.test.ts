import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The plain-form fast path is @ocp/transport-stdio's (whose property tests
// prove it decodes and encodes exactly as the schema does); this package holds
// a copy, since a transport may not import another. The copy must not drift.
describe("the plain-form fast path copied from @ocp/transport-stdio", () => {
  for (const name of ["canonical", "wire"]) {
    it(`src/plain/${name}.ts is transport-stdio's src/${name}.ts`, () => {
      const here = readFileSync(new URL(`../src/plain/${name}.ts`, import.meta.url), "utf8");
      const there = readFileSync(
        new URL(`../../transport-stdio/src/${name}.ts`, import.meta.url),
        "utf8",
      );
      expect(here.split("\n").slice(2).join("\n")).toBe(there);
    });
  }
});
