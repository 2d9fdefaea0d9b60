/**
 * Issue 40: the §7.2 `capability.announce` exactly as the specification
 * prints it (`protocol`, `type`, `payload`; no envelope, unsigned), on a real
 * hub over raw sockets. On a registered connection the connection supplies
 * the sender: the hub answers with its signed `capability.confirm` and the
 * confirmed features become that connection's negotiated features — and
 * nothing else changes. Every other frame without an envelope is refused
 * `invalid_message`, saying what is missing and why; before registration the
 * bare announce is refused as a malformed registration and closed (4001).
 */
import { readFileSync } from "node:fs";
import { createMessage, generateIdentity, signObject, verifyObject } from "@ocp/a2a-ocp-messaging";
import { profilePublicKey } from "@ocp/a2a-ocp-messaging/internal";
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { HUB_BARE_ANNOUNCES_PER_MINUTE } from "../src/internal.js";
import { hubPerTest, until } from "./support.js";

const verbatim = readFileSync(
  new URL("../../../examples/a2a-ocp/spec-verbatim/capability-announce.json", import.meta.url),
  "utf8",
);

const hubs = hubPerTest();

async function agent(id: string) {
  const identity = generateIdentity(id);
  const raw = await hubs.raw(identity);
  /** Sends a signed message with the full envelope; returns its id. */
  const send = (init: { type: string; to: string; payload: unknown }): string => {
    const message = createMessage({ ...init, from: identity.id } as never) as Record<
      string,
      unknown
    >;
    raw.send(JSON.stringify(signObject(message, identity.secretKey)));
    return String(message["id"]);
  };
  /** The hub's answer (ack or reject) to the message `id`. */
  const answer = async (id: string) => {
    const of = () => raw.controls().find((c) => c.payload["id"] === id);
    await until(() => of() !== undefined, `the hub's answer to ${id}`);
    return of()!;
  };
  const messages = () => raw.delivered().map((text) => JSON.parse(text));
  const confirms = () => messages().filter((m) => m.type === "capability.confirm");
  return { identity, raw, send, answer, messages, confirms };
}

const bare = (features: string[]) =>
  JSON.stringify({
    protocol: "a2a+ocp",
    type: "capability.announce",
    payload: { features, version: "1.0.0" },
  });

const subscribe = { type: "ocp.event.subscribe", to: "broadcast" } as const;

describe("§7.2 the specification's bare capability.announce on a registered connection", () => {
  it("is answered with a capability.confirm the hub signs, for the connection's agent", async () => {
    const alice = await agent("a2a://alice");
    alice.raw.send(verbatim);
    await until(() => alice.confirms().length === 1, "capability.confirm");
    const confirm = alice.confirms()[0];
    expect(confirm.from).toBe(hubs.hub.self.id);
    expect(confirm.to).toBe("a2a://alice");
    expect(typeof confirm.correlation_id).toBe("string");
    expect(confirm.payload.supportedFeatures).toEqual(["knowledge_streaming", "collective_query"]);
    expect(verifyObject(confirm, profilePublicKey(hubs.hub.self.profile))).toBe(true);
    expect(alice.raw.controls().filter((c) => c.type === "ocp.hub.reject")).toEqual([]);
  });

  it("makes the confirmed features that connection's own: an unconfirmed one is refused after it", async () => {
    const alice = await agent("a2a://alice");
    const bob = await agent("a2a://bob");
    alice.raw.send(verbatim); // knowledge_streaming, collective_query: no event_publishing
    await until(() => alice.confirms().length === 1, "capability.confirm");
    const refused = await alice.answer(
      alice.send({ ...subscribe, payload: { subscriptionId: "s-a", eventTypes: ["code.*"] } }),
    );
    expect(refused.type).toBe("ocp.hub.reject");
    expect(refused.payload["code"]).toBe("feature_not_negotiated");
    // Unsigned, it touched nobody else: bob never negotiated and is not restricted.
    const accepted = await bob.answer(
      bob.send({ ...subscribe, payload: { subscriptionId: "s-b", eventTypes: ["code.*"] } }),
    );
    expect(accepted.type).toBe("ocp.hub.ack");
  });

  it("a bare announce of event_publishing lets event subscribe then work, notifications included", async () => {
    const alice = await agent("a2a://alice");
    const pub = await agent("a2a://pub");
    alice.raw.send(bare(["event_publishing"]));
    await until(() => alice.confirms().length === 1, "capability.confirm");
    expect(alice.confirms()[0].payload.supportedFeatures).toEqual(["event_publishing"]);
    const subscribed = await alice.answer(
      alice.send({ ...subscribe, payload: { subscriptionId: "s-1", eventTypes: ["code.*"] } }),
    );
    expect(subscribed.type).toBe("ocp.hub.ack");
    const event = {
      eventId: "e1",
      eventType: "code.deployed",
      eventData: {},
      timestamp: new Date().toISOString(),
      source: "a2a://pub",
    };
    await pub.answer(pub.send({ type: "ocp.event.publish", to: "broadcast", payload: event }));
    await until(
      () => alice.messages().some((m) => m.type === "ocp.event.notification"),
      "notification",
    );
  });

  it(`past HUB_BARE_ANNOUNCES_PER_MINUTE (${HUB_BARE_ANNOUNCES_PER_MINUTE}) in a window, bare announces are refused rate_limited`, async () => {
    const alice = await agent("a2a://alice");
    for (let i = 0; i <= HUB_BARE_ANNOUNCES_PER_MINUTE; i += 1) alice.raw.send(verbatim);
    const limited = () => alice.raw.controls().find((c) => c.payload["code"] === "rate_limited");
    await until(() => limited() !== undefined, "rate_limited");
    expect(limited()?.payload["details"]).toMatchObject({ limit: "HUB_BARE_ANNOUNCES_PER_MINUTE" });
    await until(() => alice.confirms().length === HUB_BARE_ANNOUNCES_PER_MINUTE, "confirms");
  });
});

describe("frames without an envelope the hub refuses", () => {
  async function refusal(alice: Awaited<ReturnType<typeof agent>>) {
    const reject = () => alice.raw.controls().find((c) => c.type === "ocp.hub.reject");
    await until(() => reject() !== undefined, "ocp.hub.reject");
    return reject()!.payload;
  }

  it("any other bare type is refused invalid_message, naming what is missing and why, and has no effect", async () => {
    const alice = await agent("a2a://alice");
    const pub = await agent("a2a://pub");
    alice.raw.send(
      JSON.stringify({
        protocol: "a2a+ocp",
        type: "ocp.event.subscribe",
        payload: { subscriptionId: "s-1", eventTypes: ["code.*"] },
      }),
    );
    const refused = await refusal(alice);
    expect(refused["code"]).toBe("invalid_message");
    expect(refused["message"]).toMatch(
      /ocp\.event\.subscribe has no envelope \(missing id, from, to, timestamp\)/,
    );
    expect(refused["message"]).toMatch(/only capability\.announce may be sent bare/);
    expect(refused["details"]).toEqual({
      type: "ocp.event.subscribe",
      missing: ["id", "from", "to", "timestamp", "signature"],
    });
    // The refused subscription left no trace: a matching publish notifies nobody.
    const event = {
      eventId: "e1",
      eventType: "code.deployed",
      eventData: {},
      timestamp: new Date().toISOString(),
      source: "a2a://pub",
    };
    const published = await pub.answer(
      pub.send({ type: "ocp.event.publish", to: "broadcast", payload: event }),
    );
    expect(published.type).toBe("ocp.hub.ack");
    const probe = await pub.answer(
      pub.send({
        type: "ocp.awareness.beacon",
        to: "a2a://alice",
        payload: { status: "working", availability: "available" },
      }),
    );
    expect(probe.type).toBe("ocp.hub.ack");
    await until(() => alice.messages().some((m) => m.type === "ocp.awareness.beacon"), "probe");
    expect(alice.messages().filter((m) => m.type === "ocp.event.notification")).toEqual([]);
  });

  it("a bare announce addressed to another agent is refused: only the hub answers the bare form", async () => {
    const alice = await agent("a2a://alice");
    await agent("a2a://bob");
    alice.raw.send(JSON.stringify({ ...JSON.parse(verbatim), to: "a2a://bob" }));
    const refused = await refusal(alice);
    expect(refused["code"]).toBe("invalid_message");
    expect(refused["message"]).toMatch(/answered by the hub only/);
    expect(alice.confirms()).toEqual([]);
  });

  it("a bare announce with a malformed payload is refused with the payload's issues", async () => {
    const alice = await agent("a2a://alice");
    alice.raw.send(
      JSON.stringify({
        protocol: "a2a+ocp",
        type: "capability.announce",
        payload: { features: 1 },
      }),
    );
    const refused = await refusal(alice);
    expect(refused["code"]).toBe("invalid_message");
    expect(refused["message"]).toMatch(/needs payload \{features/);
    const issues = (refused["details"] as { issues: Array<{ path: unknown[] }> }).issues;
    expect(issues.map((i) => i.path[1])).toEqual(expect.arrayContaining(["features", "version"]));
    expect(alice.confirms()).toEqual([]);
  });

  it("before registration the bare announce is a malformed registration: refused and closed (4001), as before", async () => {
    const ws = new WebSocket(hubs.hub.url, ["a2a-ocp-v1"]);
    const frames: string[] = [];
    const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
    ws.on("message", (data) => {
      frames.push(data.toString());
      if (frames.length === 1) ws.send(verbatim);
    });
    expect(await closed).toBe(4001);
    const types = frames.map((f) => JSON.parse(f).type);
    expect(types).toEqual(["ocp.connection.ack", "ocp.connection.refused"]);
    expect(JSON.parse(frames[1]!).payload).toEqual({
      reason: "the announcement is malformed",
      code: 4001,
    });
    expect(hubs.hub.connectedAgents()).toEqual([]);
  });
});
