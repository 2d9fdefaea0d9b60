import { describe, expect, it } from "vitest";
import { fromErrorEnvelope, OcpError, positiveLimit } from "../src/index.js";

describe("positiveLimit", () => {
  it("takes the fallback when unset and a positive integer when given", () => {
    expect(positiveLimit("maxLineBytes", undefined, 16)).toBe(16);
    expect(positiveLimit("maxLineBytes", 1, 16)).toBe(1);
  });

  it("refuses 0 (never 'unlimited'), negatives, fractions and infinity, naming the option", () => {
    for (const bad of [0, -1, 1.5, Number.POSITIVE_INFINITY, Number.NaN]) {
      expect(() => positiveLimit("maxLineBytes", bad, 16)).toThrow(RangeError);
    }
    expect(() => positiveLimit("maxLineBytes", 0, 16)).toThrow(
      /maxLineBytes must be a positive integer \(got 0\)/,
    );
  });
});

describe("fromErrorEnvelope", () => {
  it("H3: an incompatible_version wire code becomes the local incompatible_version", () => {
    const error = fromErrorEnvelope(
      { code: "incompatible_version", message: "speaks ocp/2.0" },
      "p",
    );
    expect(error).toBeInstanceOf(OcpError);
    expect(error.code).toBe("incompatible_version");
    expect(error.details).toEqual({ code: "incompatible_version", message: "speaks ocp/2.0" });
  });

  it("any other code is provider_error carrying the wire code; unknown or absent reads as internal", () => {
    expect(fromErrorEnvelope({ code: "unsupported_kind", message: "m" }, "p")).toMatchObject({
      code: "provider_error",
      details: { code: "unsupported_kind" },
    });
    expect(fromErrorEnvelope({ message: "m" }, "p").details.code).toBe("internal");
    expect(fromErrorEnvelope({ code: "made_up", message: "m" }, "p").details.code).toBe("internal");
    expect(fromErrorEnvelope({ message: "boom" }, "docs").message).toBe(
      'provider "docs" answered error (internal): boom',
    );
  });
});
