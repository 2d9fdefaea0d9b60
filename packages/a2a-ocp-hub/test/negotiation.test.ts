import { verifyObject } from "@ocp/a2a-ocp-messaging";
import { profilePublicKey } from "@ocp/a2a-ocp-messaging/internal";
import { describe, expect, it } from "vitest";
import { hubPerTest, subscribeEvents, until } from "./support.js";

const fixture = hubPerTest(() => ({ features: ["knowledge_streaming", "event_publishing"] }));
const join = (name: string, options = {}) => fixture.join(name, options);

describe("§7.2 negotiation at connection", () => {
  it("confirms the supported features and refuses the others", async () => {
    const alice = await join("alice");
    expect(alice.client.hub?.id).toBe(fixture.hub.self.id);
    expect(alice.client.hub?.publicKey).toBe(fixture.hub.self.profile.publicKey);
    const confirm = await alice.client.negotiate(["knowledge_streaming", "awareness_beacon"]);
    expect(confirm.supportedFeatures).toEqual(["knowledge_streaming"]);
    expect([...(alice.client.confirmedFeatures ?? [])]).toEqual(["knowledge_streaming"]);
    await expect(
      alice.client.send({
        type: "ocp.awareness.beacon",
        to: "broadcast",
        payload: { status: "working", availability: "available" },
      }),
    ).rejects.toMatchObject({ code: "feature_not_negotiated" });
    expect(alice.received).toHaveLength(0); // the confirm is consumed by negotiate
  }, 30_000);
});

describe("§5.5.4 notifications", () => {
  it("a subscriber gets a hub-signed notification carrying the signed publish", async () => {
    const pub = await join("pub");
    const sub = await join("sub");
    await subscribeEvents(sub.client, "sub-1", ["code.*"]);
    await pub.client.send({
      type: "ocp.event.publish",
      to: "broadcast",
      payload: {
        eventId: "e1",
        eventType: "code.deployed",
        eventData: { service: "api" },
        timestamp: new Date().toISOString(),
        source: pub.id.id,
      },
    });
    await until(() => sub.received.length === 1, "notification");
    const note = sub.received[0]!.message;
    expect(note.type).toBe("ocp.event.notification");
    expect(note.from).toBe(fixture.hub.self.id);
    const payload = note.payload as Record<string, unknown>;
    expect(payload["subscriptionId"]).toBe("sub-1");
    expect((payload["event"] as { eventId: string }).eventId).toBe("e1");
    const publish = payload["ocpPublish"] as Record<string, unknown>;
    expect(publish["from"]).toBe(pub.id.id);
    expect(verifyObject(publish, pub.id.publicKey)).toBe(true);
    expect(
      verifyObject(JSON.parse(sub.received[0]!.raw), profilePublicKey(fixture.hub.self.profile)),
    ).toBe(true);
  }, 30_000);
});
