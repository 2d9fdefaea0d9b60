import { describe, expect, it } from "vitest";
import { hubError } from "../src/errors.js";

// That no source constructs an OcpError itself is checked for every package by
// packages/types/test/error-factories.test.ts.
describe("typed error codes", () => {
  it("hubError takes only this package's codes: an unknown code does not compile", () => {
    expect(hubError("store_failed", "x").code).toBe("store_failed");
    // @ts-expect-error not a code of this package
    expect(hubError("no_such_code", "x").code).toBe("no_such_code");
  });
});
