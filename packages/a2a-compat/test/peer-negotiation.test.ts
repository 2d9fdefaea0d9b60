import { listenForPeers, OCPAgent, peerLink } from "@ocp/a2a-ocp-agent";
import type { KnowledgeNode } from "@ocp/a2a-ocp-messaging";
import { identity, sampleNode, until } from "@ocp/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { FeatureNegotiator, negotiatedLink } from "../src/index.js";

let cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c().catch(() => undefined);
  cleanup = [];
});

describe("§7.2 negotiation on a direct (hub-less) link", () => {
  it("features are negotiated over the peer socket, and an unconfirmed one is refused with a clear error", async () => {
    const a = identity("p2p-alice");
    const b = identity("p2p-bob");
    const listener = await listenForPeers({
      identity: a,
      allowedPeers: [{ id: b.id, publicKey: b.publicKey }],
    });
    const aliceNegotiator = new FeatureNegotiator({ identity: a, link: listener.link });
    const alice = new OCPAgent({
      identity: a,
      link: negotiatedLink(listener.link, aliceNegotiator),
    }).start();
    cleanup.push(() => alice.close());
    const bobLink = await peerLink({ url: listener.url, identity: b, reconnect: false });
    const bobNegotiator = new FeatureNegotiator({
      identity: b,
      link: bobLink,
      features: ["knowledge_streaming", "collective_query", "consensus_voting"],
      timeoutMs: 10_000,
    });
    const bob = new OCPAgent({ identity: b, link: negotiatedLink(bobLink, bobNegotiator) }).start();
    cleanup.push(() => bob.close());

    const got: KnowledgeNode[] = [];
    bob.on("knowledge", (n) => got.push(...n));
    await bob.subscribe(alice.id, { deliveryMode: "push" });
    expect(bobNegotiator.confirmedWith(alice.id)).toEqual([
      "knowledge_streaming",
      "collective_query",
      "consensus_voting",
    ]);
    await until(() => aliceNegotiator.confirmedWith(bob.id) !== undefined, "alice confirmed");
    await alice.streamKnowledge([sampleNode({ createdBy: alice.id, title: "direct" })]);
    await until(() => got.length === 1, "stream over the negotiated peer link");
    await expect(bob.syncKnowledge(alice.id)).rejects.toMatchObject({
      code: "feature_not_confirmed",
    });
  }, 60_000);
});
