import { describe, expect, it } from "vitest";
import { clientError } from "../src/errors.js";

// That no source constructs an OcpError itself is checked for every package by
// packages/types/test/error-factories.test.ts.
describe("typed error codes", () => {
  it("clientError takes only this package's codes: an unknown code does not compile", () => {
    expect(clientError("hub_timeout", "x").code).toBe("hub_timeout");
    // @ts-expect-error not a code of this package
    expect(clientError("no_such_code", "x").code).toBe("no_such_code");
  });
});
