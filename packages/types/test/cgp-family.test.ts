import { describe, expect, it } from "vitest";
import {
  budgetFromModelTokens,
  CGP_HOST_SAFETY_FACTOR,
  cgpErrorCode,
  cgpVersionsCompatible,
  EGRESS_SCOPES,
  fingerprintDimensions,
  isCgpTimestamp,
  isOffMachineScope,
  isRetryableCgpCode,
  isWellFormedDigest,
  offMachineScopes,
  scopesConsistent,
  sha256Digest,
  utf8ByteLength,
} from "../src/cgp/index.js";
import {
  CGP_PROTOCOL_VERSION,
  familyOfVersion,
  OCP_PROTOCOL_VERSION,
  PROTOCOL_VERSION,
  versionOfFamily,
  versionsCompatible,
} from "../src/index.js";

describe("protocol families", () => {
  it("names the version of each family; OCP_PROTOCOL_VERSION is PROTOCOL_VERSION", () => {
    expect(OCP_PROTOCOL_VERSION).toBe(PROTOCOL_VERSION);
    expect(CGP_PROTOCOL_VERSION).toBe("contextgraph/1.0-draft");
    expect(versionOfFamily("ocp/1")).toBe(OCP_PROTOCOL_VERSION);
    expect(versionOfFamily("contextgraph/1")).toBe(CGP_PROTOCOL_VERSION);
  });

  it("familyOfVersion reads the family from either grammar, undefined for anything else", () => {
    expect(familyOfVersion("ocp/1.0-draft")).toBe("ocp/1");
    expect(familyOfVersion("ocp/1.7")).toBe("ocp/1");
    expect(familyOfVersion("contextgraph/1.0-draft")).toBe("contextgraph/1");
    expect(familyOfVersion("contextgraph/1.0")).toBe("contextgraph/1");
    for (const other of [
      "contextgraph/2.0",
      "ocp/2.0",
      "contextgraph/1",
      "1.0",
      "",
      "Contextgraph/1.0",
    ]) {
      expect(familyOfVersion(other), other).toBeUndefined();
    }
  });

  it("versionsCompatible keeps its meaning and is false across families", () => {
    expect(versionsCompatible("ocp/1.0-draft", "ocp/1.3")).toBe(true);
    expect(versionsCompatible(OCP_PROTOCOL_VERSION, CGP_PROTOCOL_VERSION)).toBe(false);
    expect(versionsCompatible(CGP_PROTOCOL_VERSION, OCP_PROTOCOL_VERSION)).toBe(false);
    expect(cgpVersionsCompatible(CGP_PROTOCOL_VERSION, "contextgraph/1.5")).toBe(true);
    expect(cgpVersionsCompatible(CGP_PROTOCOL_VERSION, "contextgraph/2.0")).toBe(false);
    expect(cgpVersionsCompatible(CGP_PROTOCOL_VERSION, OCP_PROTOCOL_VERSION)).toBe(false);
  });
});

describe("bytes and formats", () => {
  it("sha256Digest is sha256:<64 lowercase hex> of the UTF-8 bytes (FIPS 180-4 vectors)", () => {
    expect(sha256Digest("")).toBe(
      "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
    expect(sha256Digest("abc")).toBe(
      "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
    expect(sha256Digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")).toBe(
      "sha256:248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    );
    expect(sha256Digest(new TextEncoder().encode("café"))).toBe(sha256Digest("café"));
  });

  it("sha256Digest agrees with node:crypto across block boundaries", async () => {
    const { createHash } = await import("node:crypto");
    for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000]) {
      const text = "é".repeat(n);
      expect(sha256Digest(text)).toBe(`sha256:${createHash("sha256").update(text).digest("hex")}`);
    }
  });

  it("utf8ByteLength counts what TextEncoder writes, surrogate pairs and lone surrogates included", () => {
    for (const text of ["", "a", "é", "€", "😀", "a😀b", "\ud83d", "x\udc00y"]) {
      expect(utf8ByteLength(text), JSON.stringify(text)).toBe(
        new TextEncoder().encode(text).length,
      );
    }
  });

  it("F5/D1: a digest is sha256: and 64 lowercase hex, nothing else", () => {
    expect(isWellFormedDigest(`sha256:${"a".repeat(64)}`)).toBe(true);
    expect(isWellFormedDigest("sha256:abc")).toBe(false);
    expect(isWellFormedDigest(`sha256:${"A".repeat(64)}`)).toBe(false);
    expect(isWellFormedDigest(`sha512:${"a".repeat(64)}`)).toBe(false);
    expect(isWellFormedDigest("a".repeat(64))).toBe(false);
    expect(isWellFormedDigest(null)).toBe(false);
  });

  it("F4: the UTC profile, calendar checked, leap second allowed", () => {
    for (const ok of [
      "2026-07-20T18:00:00Z",
      "2026-07-20T18:00:00.123456789Z",
      "2024-02-29T00:00:00Z",
      "2016-12-31T23:59:60Z",
    ]) {
      expect(isCgpTimestamp(ok), ok).toBe(true);
    }
    for (const bad of [
      "last tuesday",
      "2026-07-20",
      "2026-07-20T18:00:00+02:00",
      "2026-07-20t18:00:00Z",
      "2026-07-20 18:00:00Z",
      "2026-07-20T18:00:00z",
      "2026-13-01T00:00:00Z",
      "2026-04-31T00:00:00Z",
      "2026-02-29T00:00:00Z",
      "1900-02-29T00:00:00Z",
      "2026-07-20T24:00:00Z",
      "2016-12-31T23:59:61Z",
      "2026-07-20T18:00:00.Z",
    ]) {
      expect(isCgpTimestamp(bad), bad).toBe(false);
    }
  });

  it("E1: the fingerprint grammar gives the declared dimension", () => {
    expect(fingerprintDimensions("bge-small-en-v1.5/384/l2")).toBe(384);
    expect(fingerprintDimensions("model/8")).toBe(8);
    expect(fingerprintDimensions("model")).toBeUndefined();
  });
});

describe("budget tokens are an accounting unit (§7.2)", () => {
  it("a host maps its model budget with the 1.35 safety factor, rounding down", () => {
    expect(CGP_HOST_SAFETY_FACTOR).toBe(1.35);
    expect(budgetFromModelTokens(1350)).toBe(1000);
    expect(budgetFromModelTokens(1000)).toBe(740);
    expect(budgetFromModelTokens(1000, 1)).toBe(1000);
    expect(budgetFromModelTokens(0)).toBe(0);
  });
  it("a factor below 1, not finite, or a bad budget is a RangeError naming it (never an unbounded budget)", () => {
    expect(() => budgetFromModelTokens(1000, 0)).toThrow(/factor/);
    expect(() => budgetFromModelTokens(1000, Number.NaN)).toThrow(/factor/);
    expect(() => budgetFromModelTokens(1000, 0.5)).toThrow(/factor/);
    expect(() => budgetFromModelTokens(-1)).toThrow(/modelTokens/);
    expect(() => budgetFromModelTokens(1.5)).toThrow(/modelTokens/);
  });
});

describe("egress scopes (§4.1, C5) and error codes (X1, X2)", () => {
  it("only local-only stays on the machine; an unknown or custom scope is off-machine", () => {
    expect(EGRESS_SCOPES).toEqual([
      "local-only",
      "org-tenant",
      "third-party-index",
      "third-party-model",
    ]);
    expect(isOffMachineScope("local-only")).toBe(false);
    for (const scope of [
      "org-tenant",
      "third-party-index",
      "third-party-model",
      "acme:vault",
      "brand-new",
    ]) {
      expect(isOffMachineScope(scope), scope).toBe(true);
    }
  });

  it("C5: an off-machine scope alongside egress: false is inconsistent", () => {
    expect(scopesConsistent({ egress: false })).toBe(true);
    expect(scopesConsistent({ egress: false, egress_scopes: ["local-only"] })).toBe(true);
    expect(scopesConsistent({ egress: false, egress_scopes: ["third-party-model"] })).toBe(false);
    expect(scopesConsistent({ egress: false, egress_scopes: ["acme:vault"] })).toBe(false);
    expect(scopesConsistent({ egress: true, egress_scopes: ["third-party-model"] })).toBe(true);
    expect(scopesConsistent({ egress: true, egress_scopes: ["notnamespaced"] })).toBe(false);
    expect(
      offMachineScopes({ egress_scopes: ["local-only", "org-tenant", "org-tenant", "x:y"] }),
    ).toEqual(["org-tenant", "x:y"]);
  });

  it("X1/X2: an unknown, absent or non-string code reads as internal, which is never retryable", () => {
    expect(cgpErrorCode("unsupported_kind")).toBe("unsupported_kind");
    expect(cgpErrorCode("acme:quota")).toBe("internal");
    expect(cgpErrorCode(undefined)).toBe("internal");
    expect(cgpErrorCode(null)).toBe("internal");
    expect(cgpErrorCode(42)).toBe("internal");
    expect(isRetryableCgpCode("unavailable")).toBe(true);
    expect(isRetryableCgpCode("acme:please-retry")).toBe(false);
    expect(isRetryableCgpCode(undefined)).toBe(false);
    expect(isRetryableCgpCode("incompatible_version")).toBe(false);
  });
});
