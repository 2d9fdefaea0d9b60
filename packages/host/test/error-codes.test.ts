import { describe, expect, it } from "vitest";
import { hostError } from "../src/errors.js";

describe("typed error codes", () => {
  it("hostError takes only the host's codes: a raw or foreign code does not compile", () => {
    expect(hostError("unknown_provider", "no such provider").code).toBe("unknown_provider");
    // @ts-expect-error not a host code
    expect(hostError("store_failed", "x").code).toBe("store_failed");
  });
});
