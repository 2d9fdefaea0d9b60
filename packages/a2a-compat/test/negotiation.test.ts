import type { DeliveredMessage, HubClient } from "@ocp/a2a-ocp-client";
import type { OCPHub } from "@ocp/a2a-ocp-hub";
import type { AgentIdentity } from "@ocp/a2a-ocp-messaging";
import { client, identity } from "@ocp/testkit";
import { isOcpError } from "@ocp/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FeatureNegotiator } from "../src/index.js";
import { FeatureNotConfirmed, featureOf } from "../src/internal.js";
import { ocpAgent, startHub, type TestAgent, tempDir, until, within } from "./support.js";

describe("§7.2 feature negotiation over a real hub", () => {
  const tmp = tempDir("ocp-a2a-negotiation-");
  let hub: OCPHub;
  let alice: TestAgent;
  let carol: TestAgent;
  let dave: TestAgent;
  let mute: { client: HubClient; received: DeliveredMessage[] };
  let muteId: AgentIdentity;

  beforeAll(async () => {
    hub = await startHub(tmp.dir);
    alice = await ocpAgent(hub.url, "alice");
    carol = await ocpAgent(hub.url, "carol", {
      features: ["knowledge_streaming", "awareness_beacon"],
    });
    dave = await ocpAgent(hub.url, "dave");
    muteId = identity("mute");
    mute = await client(hub.url, muteId);
  });

  afterAll(async () => {
    await alice.close();
    await carol.close();
    await dave.close();
    await mute.client.close();
    await hub.close();
    tmp.cleanup();
  });

  it("maps every message type to its §7.1 feature", () => {
    expect(featureOf("ocp.knowledge.stream")).toBe("knowledge_streaming");
    expect(featureOf("ocp.knowledge.sync.request")).toBe("bidirectional_sync");
    expect(featureOf("ocp.sync.offer")).toBe("bidirectional_sync");
    expect(featureOf("ocp.collective.query")).toBe("collective_query");
    expect(featureOf("ocp.consensus.vote")).toBe("consensus_voting");
    expect(featureOf("ocp.awareness.query")).toBe("awareness_beacon");
    expect(featureOf("ocp.event.subscribe")).toBe("event_publishing");
    expect(featureOf("capability.announce")).toBeUndefined();
    expect(featureOf("ocp.custom.acme.ping")).toBeUndefined();
  });

  it("§7.2 capability.announce is answered by capability.confirm with the features both offer, and both sides keep them", async () => {
    const confirmed = await within(
      alice.negotiator.negotiate(carol.identity.id),
      15_000,
      "negotiation",
    );
    expect([...confirmed].sort()).toEqual(["awareness_beacon", "knowledge_streaming"]);
    expect([...(carol.negotiator.confirmedWith(alice.identity.id) ?? [])].sort()).toEqual([
      "awareness_beacon",
      "knowledge_streaming",
    ]);
    const announce = carol.link.received.find(
      (m) => m.type === "capability.announce" && m.from === alice.identity.id,
    );
    const confirm = alice.link.received.find(
      (m) => m.type === "capability.confirm" && m.from === carol.identity.id,
    );
    expect(announce?.payload).toMatchObject({ version: "1.0.0" });
    expect(confirm?.correlation_id).toBe(announce?.id);
  });

  it("§7.2 a message of an unconfirmed feature is refused with FeatureNotConfirmed before it is sent", async () => {
    await within(alice.negotiator.ensure(carol.identity.id));
    const accepted = hub.stats().accepted;
    const error = await within(alice.agent.sync(carol.identity.id).catch((e: unknown) => e));
    expect(error).toBeInstanceOf(FeatureNotConfirmed);
    expect(isOcpError(error, "feature_not_confirmed")).toBe(true);
    expect((error as FeatureNotConfirmed).details).toMatchObject({
      peer: carol.identity.id,
      feature: "bidirectional_sync",
      type: "ocp.sync.request",
    });
    // Nothing reached the hub, nothing reached carol.
    expect(hub.stats().accepted).toBe(accepted);
    expect(carol.link.received.some((m) => m.type.startsWith("ocp.sync."))).toBe(false);
  });

  it("§7.2 a confirmed feature goes through (awareness query answered by the peer)", async () => {
    await carol.agent.beacon({ status: "working", availability: "busy" });
    const agents = await within(
      alice.agent.queryAwareness(undefined, carol.identity.id),
      15_000,
      "awareness answer",
    );
    expect(agents.map((a) => a.agentId)).toContain(carol.identity.id);
  });

  it("§7.2 the first direct message to a peer negotiates first", async () => {
    expect(alice.negotiator.confirmedWith(dave.identity.id)).toBeUndefined();
    await within(
      alice.agent.queryAwareness(undefined, dave.identity.id),
      15_000,
      "awareness answer",
    );
    expect(alice.negotiator.confirmedWith(dave.identity.id)?.length).toBe(6);
  });

  it("§7.2 an announce of another major version is confirmed with no feature, so nothing of any feature is sent to that peer", async () => {
    await within(
      mute.client.send({
        type: "capability.announce",
        to: alice.identity.id,
        payload: { features: ["knowledge_streaming"], version: "2.0.0" },
      }),
    );
    await until(
      () => mute.received.some((d) => d.message.type === "capability.confirm"),
      "alice's confirm",
    );
    const confirm = mute.received.find((d) => d.message.type === "capability.confirm")?.message as {
      payload: unknown;
    };
    expect(confirm.payload).toEqual({ supportedFeatures: [], version: "1.0.0" });
    expect(alice.negotiator.confirmedWith(muteId.id)).toEqual([]);
    const error = await alice.agent.unsubscribe(muteId.id, "sub-1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FeatureNotConfirmed);
    expect(mute.received.some((d) => d.message.type === "ocp.knowledge.unsubscribe")).toBe(false);
  });

  it("§7.2 a peer that never confirms fails negotiation (bounded wait), and nothing of the feature is sent", async () => {
    const silent = identity("silent");
    const quiet = await client(hub.url, silent);
    const impatient = new FeatureNegotiator({
      identity: alice.identity,
      link: alice.link,
      timeoutMs: 300,
    });
    try {
      const error = await within(
        impatient.assertAllowed(silent.id, "ocp.knowledge.subscribe").catch((e: unknown) => e),
      );
      expect(isOcpError(error, "negotiation_failed")).toBe(true);
      expect(quiet.received.map((d) => d.message.type)).toEqual(["capability.announce"]);
    } finally {
      impatient.close();
      await quiet.client.close();
    }
  });
});
