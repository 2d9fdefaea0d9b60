import { describe, expect, it } from "vitest";
import {
  CGP_RULES,
  type CgpAckLike,
  cgpHandshakeViolations,
  decodeCgpEnvelope,
  embeddingFits,
  isValidEgressScope,
  scopesConsistent,
} from "../src/cgp/index.js";

const V = "contextgraph/1.0-draft";
const ack = (
  patch: {
    protocol_version?: string;
    name?: string;
    version?: string;
    egress?: boolean;
    egress_scopes?: string[];
    representations?: ("full" | "compact" | "reference")[];
    resolve?: boolean;
  } = {},
): CgpAckLike => ({
  protocol_version: patch.protocol_version ?? V,
  provider: {
    name: patch.name ?? "docs",
    version: patch.version ?? "1.0.0",
    data_flow: {
      reads: true,
      writes: false,
      egress: patch.egress ?? false,
      ...(patch.egress_scopes ? { egress_scopes: patch.egress_scopes } : {}),
    },
  },
  capabilities: { representations: patch.representations ?? [], resolve: patch.resolve ?? false },
});
const rules = (a: CgpAckLike) => cgpHandshakeViolations(a, V).map((v) => v.rule);

describe("cgpHandshakeViolations", () => {
  it("an honest acknowledgement breaks nothing (a later minor of the family included)", () => {
    expect(rules(ack())).toEqual([]);
    expect(rules(ack({ protocol_version: "contextgraph/1.4" }))).toEqual([]);
    expect(
      rules(ack({ egress: true, egress_scopes: ["third-party-model", "acme:vault"] })),
    ).toEqual([]);
    expect(rules(ack({ representations: ["full", "compact"], resolve: true }))).toEqual([]);
  });

  it("H1: another major family, or the other protocol, is exactly H1", () => {
    expect(rules(ack({ protocol_version: "contextgraph/2.0" }))).toEqual(["H1"]);
    expect(rules(ack({ protocol_version: "ocp/1.0-draft" }))).toEqual(["H1"]);
  });

  it("H2: a blank name or version is exactly H2", () => {
    expect(rules(ack({ name: " " }))).toEqual(["H2"]);
    expect(rules(ack({ version: "" }))).toEqual(["H2"]);
  });

  it("C5: an off-machine scope beside egress: false, or a scope not namespaced, is C5", () => {
    const lie = cgpHandshakeViolations(
      ack({ egress: false, egress_scopes: ["third-party-index"] }),
      V,
    );
    expect(lie.map((v) => v.rule)).toEqual(["C5"]);
    expect(lie[0]?.message).toContain("third-party-index");
    expect(rules(ack({ egress: true, egress_scopes: ["notnamespaced"] }))).toEqual(["C5"]);
    expect(rules(ack({ egress: false, egress_scopes: ["local-only"] }))).toEqual([]);
  });

  it("X-RESOLVE: compact or reference without resolve: true", () => {
    expect(rules(ack({ representations: ["compact"], resolve: false }))).toEqual(["X-RESOLVE"]);
    expect(rules(ack({ representations: ["full"], resolve: false }))).toEqual([]);
    expect(CGP_RULES.some((r) => r.id === "X-RESOLVE" && r.source === "extension")).toBe(true);
  });
});

describe("egress scope well-formedness (U3) inside C5", () => {
  it("a base scope or vendor:name is well formed; a bare unknown word or an empty side is not", () => {
    for (const ok of [
      "local-only",
      "org-tenant",
      "third-party-index",
      "third-party-model",
      "acme:vault",
    ]) {
      expect(isValidEgressScope(ok), ok).toBe(true);
    }
    for (const bad of ["notnamespaced", ":vault", "acme:", ""])
      expect(isValidEgressScope(bad), bad).toBe(false);
    expect(scopesConsistent({ egress: true, egress_scopes: ["notnamespaced"] })).toBe(false);
  });
});

describe("E1 on the provider's side", () => {
  it("a vector fits only a well-formed fingerprint of its length", () => {
    expect(embeddingFits([0.1, 0.2, 0.3], "m/3")).toBe(true);
    expect(embeddingFits([0.1, 0.2], "m/3/l2")).toBe(false);
    expect(embeddingFits([0.1], null)).toBe(false);
    expect(embeddingFits([0.1], "no-dimension")).toBe(false);
  });
});

describe("representation lists on receive", () => {
  it("a representation a later minor adds is dropped from capabilities and preferences, not a rejection", () => {
    const decodedAck = decodeCgpEnvelope({
      type: "handshake_ack",
      protocol_version: "contextgraph/1.3",
      provider: {
        name: "p",
        version: "1",
        data_flow: { reads: true, writes: false, egress: false },
      },
      capabilities: { query: { kinds: [] }, representations: ["full", "hologram"], resolve: true },
    });
    expect(
      decodedAck.ok &&
        decodedAck.envelope.type === "handshake_ack" &&
        decodedAck.envelope.capabilities.representations,
    ).toEqual(["full"]);
    const query = decodeCgpEnvelope({
      type: "query",
      query: {
        goal: "g",
        max_frames: 1,
        max_tokens: 1,
        representation_preferences: ["hologram", "compact"],
      },
    });
    expect(
      query.ok &&
        query.envelope.type === "query" &&
        query.envelope.query.representation_preferences,
    ).toEqual(["compact"]);
  });
});
