import { describe, expect, it } from "vitest";
import {
  isVersionString,
  PROTOCOL_VERSION,
  protocolFamily,
  versionsCompatible,
} from "../src/index.js";

describe("versions (H1, H3)", () => {
  it("speaks ocp/1.0-draft", () => {
    expect(PROTOCOL_VERSION).toBe("ocp/1.0-draft");
  });

  it("the family is everything before the first dot", () => {
    expect(protocolFamily("ocp/1.0-draft")).toBe("ocp/1");
    expect(protocolFamily("ocp/12.3")).toBe("ocp/12");
  });

  it("H3: versions of one major family interoperate, whatever the minor or -draft", () => {
    expect(versionsCompatible("ocp/1.0-draft", "ocp/1.0")).toBe(true);
    expect(versionsCompatible(PROTOCOL_VERSION, "ocp/1.9")).toBe(true);
    expect(versionsCompatible("ocp/1.0-draft", "ocp/2.0")).toBe(false);
    expect(versionsCompatible("ocp/1.0", "ocp/10.0")).toBe(false);
    expect(versionsCompatible("ocp/1.0", "mcp/1.0")).toBe(false);
  });

  it("a string outside the grammar interoperates with nothing", () => {
    for (const bad of ["ocp/1", "ocp/1.", "1.0", "ocp/1.0-beta", "", "ocp/1.0-draft "]) {
      expect(isVersionString(bad)).toBe(false);
      expect(versionsCompatible(bad, PROTOCOL_VERSION)).toBe(false);
      expect(versionsCompatible(bad, bad)).toBe(false);
    }
  });
});
