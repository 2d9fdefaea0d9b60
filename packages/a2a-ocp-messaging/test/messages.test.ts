import { describe, expect, expectTypeOf, it } from "vitest";
import {
  createMessage,
  decodeMessage,
  isOcpError,
  KNOWN_MESSAGE_TYPES,
  type KnownMessageType,
  versionsCompatible,
} from "../src/index.js";
import { PAYLOAD_SCHEMAS } from "../src/internal.js";
import { ALICE, BOB, NODE, SAMPLE_PAYLOADS } from "./support/samples.js";

function build<T extends KnownMessageType>(type: T, payload = SAMPLE_PAYLOADS[type]) {
  return createMessage({ type, from: ALICE, to: BOB, payload });
}

function payloadError(type: KnownMessageType, payload: unknown): string | undefined {
  const parsed = PAYLOAD_SCHEMAS[type].safeParse(payload);
  return parsed.success ? undefined : parsed.error.issues.map((i) => i.path.join(".")).join(",");
}

describe("payload schemas (§5, §7.2, §12)", () => {
  it.each(KNOWN_MESSAGE_TYPES)("%s: a sample payload builds and decodes", (type) => {
    const message = build(type);
    const decoded = decodeMessage(JSON.parse(JSON.stringify(message)));
    expect(decoded.ok).toBe(true);
    if (decoded.ok) expect(decoded.value).toEqual(message);
  });

  it("every known type has a payload schema, and no other key does", () => {
    expect(Object.keys(PAYLOAD_SCHEMAS).sort()).toEqual([...KNOWN_MESSAGE_TYPES].sort());
    expect(KNOWN_MESSAGE_TYPES).toHaveLength(7 + 1 + 3 + 4 + 4 + 4 + 5 + 2);
  });

  it.each([
    ["confidence", -0.01],
    ["confidence", 1.01],
  ])("bounds knowledge node %s to [0,1] (%s refused)", (field, value) => {
    const stream = {
      ...SAMPLE_PAYLOADS["ocp.knowledge.stream"],
      nodes: [{ ...NODE, [field]: value }],
    };
    expect(payloadError("ocp.knowledge.stream", stream)).toContain(`nodes.0.${field}`);
  });

  it("bounds edge weight, finding relevance, subscription minConfidence and threshold to [0,1]", () => {
    const edge = {
      ...SAMPLE_PAYLOADS["ocp.knowledge.update"],
      newEdges: [{ id: "e", source: "a", target: "b", relationship: "r", weight: 2 }],
    };
    expect(payloadError("ocp.knowledge.update", edge)).toContain("newEdges.0.weight");
    const response = SAMPLE_PAYLOADS["ocp.collective.response"];
    expect(
      payloadError("ocp.collective.response", {
        ...response,
        findings: [{ node: NODE, relevance: 1.5 }],
      }),
    ).toContain("findings.0.relevance");
    expect(
      payloadError("ocp.knowledge.subscribe", {
        subscriptionId: "s",
        deliveryMode: "push",
        filters: { minConfidence: -1 },
      }),
    ).toContain("filters.minConfidence");
    expect(
      payloadError("ocp.consensus.propose", {
        ...SAMPLE_PAYLOADS["ocp.consensus.propose"],
        threshold: 1.2,
      }),
    ).toContain("threshold");
    expect(
      payloadError("ocp.collective.synthesis", {
        ...SAMPLE_PAYLOADS["ocp.collective.synthesis"],
        confidence: 3,
      }),
    ).toContain("confidence");
  });

  it("closes the enums: status, availability, vote, votingRule, deliveryMode, severity, visibility, features", () => {
    expect(
      payloadError("ocp.awareness.beacon", { status: "sleeping", availability: "available" }),
    ).toBe("status");
    expect(payloadError("ocp.awareness.beacon", { status: "idle", availability: "maybe" })).toBe(
      "availability",
    );
    expect(payloadError("ocp.consensus.vote", { proposalId: "p", vote: "yes", votedBy: BOB })).toBe(
      "vote",
    );
    expect(
      payloadError("ocp.knowledge.subscribe", { subscriptionId: "s", deliveryMode: "email" }),
    ).toBe("deliveryMode");
    expect(
      payloadError("ocp.event.publish", {
        ...SAMPLE_PAYLOADS["ocp.event.publish"],
        severity: "fatal",
      }),
    ).toBe("severity");
    const stream = {
      ...SAMPLE_PAYLOADS["ocp.knowledge.stream"],
      nodes: [{ ...NODE, visibility: "secret" }],
    };
    expect(payloadError("ocp.knowledge.stream", stream)).toContain("nodes.0.visibility");
    expect(payloadError("capability.announce", { features: ["telepathy"], version: "1.0.0" })).toBe(
      "features.0",
    );
    expect(payloadError("ocp.knowledge.control", { streamId: "s", action: "stop" })).toBe("action");
  });

  it('requires threshold exactly for votingRule "threshold"', () => {
    const { threshold: _t, ...noThreshold } = SAMPLE_PAYLOADS["ocp.consensus.propose"];
    expect(payloadError("ocp.consensus.propose", noThreshold)).toBe("threshold");
    expect(
      payloadError("ocp.consensus.propose", { ...noThreshold, votingRule: "majority" }),
    ).toBeUndefined();
    expect(
      payloadError("ocp.consensus.propose", {
        ...noThreshold,
        votingRule: "majority",
        threshold: 0.5,
      }),
    ).toBe("threshold");
  });

  it("§12.1 accepts a batched knowledge stream and refuses an empty batch", () => {
    const item = SAMPLE_PAYLOADS["ocp.knowledge.stream"];
    expect(
      payloadError("ocp.knowledge.stream", {
        batched: true,
        items: [item, { ...item, sequenceNumber: 43 }],
      }),
    ).toBeUndefined();
    expect(payloadError("ocp.knowledge.stream", { batched: true, items: [] })).toBeDefined();
  });

  it("§11.2 keeps unknown (org-prefixed) payload fields instead of dropping them", () => {
    const payload = {
      ...SAMPLE_PAYLOADS["ocp.knowledge.stream"],
      acme_priority: 3,
      nodes: [{ ...NODE, acme_owner: "team-x" }],
    };
    const message = build("ocp.knowledge.stream", payload);
    expect(message.payload).toMatchObject({ acme_priority: 3, nodes: [{ acme_owner: "team-x" }] });
  });

  it("§11.1 accepts ocp.custom.* types with an object payload and refuses other unknown types", () => {
    const custom = createMessage({
      type: "ocp.custom.analytics",
      from: ALICE,
      to: "broadcast",
      payload: { metrics: [] },
    });
    expect(custom.type).toBe("ocp.custom.analytics");
    expect(() =>
      createMessage({ type: "ocp.analytics" as "ocp.custom.x", from: ALICE, to: BOB, payload: {} }),
    ).toThrow(/type/);
    const decoded = decodeMessage({ ...custom, type: "acme.analytics" });
    expect(decoded.ok || decoded.error.code).toBe("invalid_message");
  });
});

describe("envelope (§4.1)", () => {
  const valid = () => JSON.parse(JSON.stringify(build("ocp.consensus.vote")));

  it.each([
    ["protocol", "a2a"],
    ["version", "1.0"],
    ["id", ""],
    ["id", "msg abc"],
    ["id", "msg-\u0007"],
    ["id", "msg-\u00e9"],
    ["id", "m".repeat(129)],
    ["id", 42],
    ["from", "https://alice"],
    ["to", []],
    ["to", "bob"],
    ["timestamp", "2025-10-13 10:30:00"],
    ["timestamp", "2025-10-13T10:30:00"],
    ["ttl", 0],
    ["ttl", 86_401],
    ["ttl", 1.5],
    ["priority", "critical"],
    ["signature", "abc"],
    ["encrypted", "yes"],
  ])("refuses %s = %j", (field, value) => {
    const decoded = decodeMessage({ ...valid(), [field]: value });
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.error.code).toBe("invalid_message");
  });

  it.each([
    "msg-abc123",
    "node-789",
    "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
    "m".repeat(128),
    "!~",
  ])("accepts the message id %j (1-128 visible ASCII, not only UUID v4)", (id) => {
    const decoded = decodeMessage({ ...valid(), id });
    expect(decoded.ok).toBe(true);
  });

  it('accepts one URI, a list of URIs or "broadcast" in to, and all optional fields', () => {
    for (const to of [BOB, [BOB, ALICE], "broadcast"]) {
      const message = {
        ...valid(),
        to,
        ttl: 60,
        correlation_id: "c-1",
        reply_to: ALICE,
        priority: "urgent",
      };
      expect(decodeMessage(message).ok).toBe(true);
    }
  });

  it("refuses a plain message that also carries compression fields", () => {
    expect(decodeMessage({ ...valid(), compressedPayload: "AAAA" }).ok).toBe(false);
  });

  it("refuses another major version with incompatible_version, accepts another minor", () => {
    const other = decodeMessage({ ...valid(), version: "2.0.0" });
    expect(!other.ok && other.error.code).toBe("incompatible_version");
    expect(decodeMessage({ ...valid(), version: "1.7.3" }).ok).toBe(true);
  });

  it("versionsCompatible compares semver majors and refuses non-semver", () => {
    expect(versionsCompatible("1.0.0", "1.9.2-beta.1")).toBe(true);
    expect(versionsCompatible("1.0.0", "2.0.0")).toBe(false);
    expect(versionsCompatible("1.0", "1.0.0")).toBe(false);
  });
});

describe("typed builder", () => {
  it("infers the payload type from the message type", () => {
    const vote = build("ocp.consensus.vote");
    expectTypeOf(vote.type).toEqualTypeOf<"ocp.consensus.vote">();
    expectTypeOf(vote.payload.vote).toEqualTypeOf<"approve" | "reject" | "abstain">();
    const wrong = () =>
      createMessage({
        type: "ocp.consensus.vote",
        from: ALICE,
        to: BOB,
        // @ts-expect-error a vote payload is not a beacon payload
        payload: { status: "idle", availability: "away" },
      });
    expect(wrong).toThrow(/payload/);
  });

  it("fills protocol, version, a UUID v4 id and a timestamp", () => {
    const message = build("ocp.sync.accept");
    expect(message.protocol).toBe("a2a+ocp");
    expect(message.version).toBe("1.0.0");
    expect(message.id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(Number.isNaN(Date.parse(message.timestamp))).toBe(false);
  });

  it("throws invalid_message instead of building an invalid message", () => {
    try {
      createMessage({
        type: "ocp.sync.accept",
        from: ALICE,
        to: BOB,
        payload: { syncId: "", accepted: true },
      });
      expect.unreachable();
    } catch (error) {
      expect(isOcpError(error, "invalid_message")).toBe(true);
    }
  });
});
