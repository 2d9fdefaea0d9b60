import { generateIdentity, type KnowledgeNode, OCP_FEATURES } from "@ocp/a2a-ocp-messaging";
import { describe, expect, it } from "vitest";
import { OCPAgent } from "../src/agent.js";
import { listenForPeers, PEER_FEATURES, peerLink } from "../src/peer.js";
import { closersAfterEach, node, until, within } from "./support.js";

const cleanup = closersAfterEach();

describe("peer-to-peer: two agents over a direct WebSocket, no hub", () => {
  it("stream, query and vote between a listening agent and one that connects to it", async () => {
    const a = generateIdentity("a2a://peer-alice");
    const b = generateIdentity("a2a://peer-bob");
    const listener = await listenForPeers({
      identity: a,
      allowedPeers: [{ id: b.id, publicKey: b.publicKey }],
    });
    const alice = new OCPAgent({ identity: a, link: listener.link }).start();
    cleanup.push(() => alice.close());
    expect(listener.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+/);
    const bob = new OCPAgent({
      identity: b,
      link: await peerLink({ url: listener.url, identity: b, reconnect: false }),
    }).start();
    cleanup.push(() => bob.close());
    await until(() => listener.peers().includes(b.id), "bob registered");

    // Stream: Bob subscribes to Alice's knowledge and receives what she streams.
    const got: KnowledgeNode[] = [];
    bob.on("knowledge", (n) => got.push(...n));
    await bob.subscribe(alice.id, { deliveryMode: "push" });
    await bob.beacon({ status: "idle", availability: "available" });
    await until(() => alice.presence.get(bob.id) !== undefined, "subscription processed");
    await alice.streamKnowledge([
      node({ createdBy: alice.id, title: "Retry with exponential backoff" }),
    ]);
    await until(() => got.length === 1, "stream over the peer link");
    expect(bob.node(got[0]?.id ?? "")?.title).toBe("Retry with exponential backoff");

    // Query: Bob asks; Alice answers from her graph.
    const answer = await within(
      bob.collectiveQuery("exponential backoff", { timeout: 10_000, minResponses: 1 }),
      20_000,
      "collective query",
    );
    expect(answer.responses.map((r) => r.from)).toEqual([alice.id]);

    // Vote: Alice proposes, both vote, both learn the verified decision.
    const decided = Promise.all([alice, bob].map((x) => within(x.once("consensus"), 20_000)));
    const proposal = within(bob.once("proposal"), 20_000, "proposal reaches bob");
    const proposalId = await alice.propose({
      topic: "Adopt backoff",
      proposal: { decision: "adopt" },
      votingPeriod: 60,
      requiredVotes: 2,
      votingRule: "majority",
    });
    await proposal;
    await alice.vote(proposalId, "approve");
    await bob.vote(proposalId, "approve");
    for (const [d] of await decided)
      expect(d).toMatchObject({ proposalId, outcome: "approved", verified: true });
  }, 60_000);

  it("refuses a forged signature, a sender over its rate limit, and an announcement with another key for a pinned id", async () => {
    const a = generateIdentity("a2a://peer-carol");
    const b = generateIdentity("a2a://peer-dave");
    const listener = await listenForPeers({
      identity: a,
      allowedPeers: [{ id: b.id, publicKey: b.publicKey }],
      rateLimits: { messages: 2, windowMs: 3_600_000 },
    });
    cleanup.push(() => listener.close());
    const { HubClient } = await import("@ocp/a2a-ocp-client");
    const client = await HubClient.connect({ url: listener.url, identity: b, reconnect: false });
    cleanup.push(() => client.close());
    const forged = {
      protocol: "a2a+ocp",
      version: "1.0.0",
      id: globalThis.crypto.randomUUID(),
      from: b.id,
      to: a.id,
      timestamp: new Date().toISOString(),
      type: "ocp.awareness.beacon",
      payload: { status: "idle", availability: "available" },
      signature: Buffer.alloc(64).toString("base64"),
    };
    await expect(client.send(forged as never)).rejects.toMatchObject({
      code: "signature_invalid",
    });
    // The same per-sender rate limits as at a hub.
    const beacon = {
      type: "ocp.awareness.beacon" as const,
      to: a.id,
      payload: { status: "idle" as const, availability: "available" as const },
    };
    await client.send(beacon);
    await client.send(beacon);
    await expect(client.send(beacon)).rejects.toMatchObject({ code: "rate_limited" });
    await client.close();
    const impostor = { ...generateIdentity("a2a://peer-dave"), id: b.id };
    await expect(
      HubClient.connect({ url: listener.url, identity: impostor, reconnect: false }),
    ).rejects.toBeDefined();
    expect(PEER_FEATURES).toContain("consensus_voting");
  }, 30_000);
});

describe("one §7.1 feature list", () => {
  it("PEER_FEATURES is the message layer's OCP_FEATURES, not a copy that can drift", () => {
    expect(PEER_FEATURES).toBe(OCP_FEATURES);
  });
});
