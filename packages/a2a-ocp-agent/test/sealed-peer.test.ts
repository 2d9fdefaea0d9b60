/**
 * §8.4 end to end over a direct peer link (`listenForPeers`, no hub): a node
 * shared with one peer travels sealed in both directions, reaches that peer
 * only, and a sealed message whose declaration does not name a peer never
 * reaches it.
 */
import { randomUUID } from "node:crypto";
import { HubClient } from "@ocp/a2a-ocp-client";
import {
  type AgentIdentity,
  createAgentProfile,
  createMessage,
  type KnowledgeNode,
  type PlainMessage,
  signObject,
} from "@ocp/a2a-ocp-messaging";
import { SEALED_ENVELOPE_FIELD, sealedAccessOf } from "@ocp/a2a-ocp-messaging/internal";
import { encryptMessage, generateIdentityWithEncryption } from "@ocp/a2a-ocp-messaging/node";
import { sampleNode, until } from "@ocp/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { OCPAgent } from "../src/agent.js";
import { hubLink } from "../src/hub-link.js";
import { listenForPeers } from "../src/peer.js";

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close().catch(() => undefined);
});

function secretOf(author: AgentIdentity, reader: string, marker: string): KnowledgeNode {
  return {
    ...sampleNode({ createdBy: author.id, visibility: "private", sharedWith: [reader] }),
    title: `hotfix ${marker}`,
    content: `patch body ${marker}`,
  };
}

/** Alice, Bob and Carol with encryption keys; Alice listens for peers and admits the other two. */
async function aliceListening() {
  const [alice, bob, carol] = ["alice", "bob", "carol"].map((n) =>
    generateIdentityWithEncryption(`a2a://${n}-${randomUUID()}`),
  ) as [AgentIdentity, AgentIdentity, AgentIdentity];
  const listener = await listenForPeers({
    identity: alice,
    allowedPeers: [createAgentProfile(bob), createAgentProfile(carol)],
  });
  cleanup.push(() => listener.close());
  return { alice, bob, carol, listener };
}

describe("§8.4 sealed over a peer link", () => {
  it("Alice (listening) and Bob share private nodes sealed both ways; Carol, a peer too, gets neither", async () => {
    const { alice, bob, carol, listener } = await aliceListening();
    const a = new OCPAgent({ identity: alice, link: listener.link }).start();
    cleanup.push(() => a.close());
    const peer = async (identity: AgentIdentity) => {
      const client = await HubClient.connect({ url: listener.url, identity, reconnect: false });
      const raw: string[] = [];
      client.on("message", (d) => raw.push(d.raw));
      const agent = new OCPAgent({ identity, link: hubLink(client) }).start();
      const errors: unknown[] = [];
      agent.on("error", (e) => errors.push(e));
      cleanup.push(() => agent.close());
      return { agent, raw, errors };
    };
    const b = await peer(bob);
    const c = await peer(carol);
    for (const reader of [b, c]) {
      await reader.agent.subscribe(alice.id, { deliveryMode: "push" });
      await reader.agent.beacon({ status: "idle", availability: "available" });
    }
    await until(() => a.presence.get(carol.id) !== undefined, "both subscribed");

    const toBob = `TO-BOB-${randomUUID()}`;
    const fromAlice = secretOf(alice, bob.id, toBob);
    await a.streamKnowledge([fromAlice]);
    await until(() => b.agent.node(fromAlice.id) !== undefined, "bob has alice's node");
    expect(b.agent.node(fromAlice.id)?.content).toBe(fromAlice.content);
    const streams = b.raw.filter((r) => r.includes('"ocp.knowledge.stream"'));
    expect(streams.length).toBeGreaterThan(0);
    for (const r of streams) {
      expect(JSON.parse(r)["encrypted"]).toBe(true);
      expect(r).not.toContain(toBob);
    }

    // Bob to the listening agent: Bob finds Alice's key through the listener's discovery.
    await a.subscribe(bob.id, { deliveryMode: "push" });
    await a.beacon({ status: "idle", availability: "available" });
    await until(() => b.agent.presence.get(alice.id) !== undefined, "alice subscribed");
    const toAlice = `TO-ALICE-${randomUUID()}`;
    const fromBob = secretOf(bob, alice.id, toAlice);
    await b.agent.streamKnowledge([fromBob]);
    await until(() => a.node(fromBob.id) !== undefined, "alice has bob's node");

    expect(c.agent.node(fromAlice.id)).toBeUndefined();
    expect(c.agent.node(fromBob.id)).toBeUndefined();
    for (const r of c.raw) {
      expect(r).not.toContain(toBob);
      expect(r).not.toContain(toAlice);
    }
    expect([...b.errors, ...c.errors]).toEqual([]);
  }, 30_000);

  it("the listener does not hand a sealed message to a peer it does not declare, and refuses an invalid declaration", async () => {
    const { alice, bob, carol, listener } = await aliceListening();
    const carolClient = await HubClient.connect({
      url: listener.url,
      identity: carol,
      reconnect: false,
    });
    cleanup.push(() => carolClient.close());
    const received: string[] = [];
    carolClient.on("message", (d) => received.push(d.message.id));
    await until(() => listener.peers().includes(carol.id), "carol connected");
    const node = sampleNode({ createdBy: alice.id, visibility: "private", sharedWith: [bob.id] });
    const plain = createMessage({
      type: "ocp.knowledge.stream",
      from: alice.id,
      to: "broadcast",
      payload: { streamId: "s", nodes: [node], edges: [], isIncremental: true, sequenceNumber: 1 },
    }) as PlainMessage;
    const seal = (recipients: AgentIdentity[], declared: string[]) =>
      signObject(
        encryptMessage(
          {
            ...plain,
            id: randomUUID(),
            [SEALED_ENVELOPE_FIELD]: {
              recipients: declared,
              access: sealedAccessOf(plain.type, alice.id, plain.payload),
            },
          } as PlainMessage,
          recipients.map((i) => ({ agentId: i.id, publicKey: i.encryption!.publicKey })),
        ),
        alice.secretKey,
      );
    expect(await listener.link.send(seal([alice, bob], [alice.id, bob.id]))).toEqual({
      recipients: 0,
      excluded: 1,
    });
    await expect(
      listener.link.send(seal([alice, bob, carol], [alice.id, bob.id, carol.id])),
    ).rejects.toMatchObject({ code: "sealed_recipient_not_allowed" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received).toEqual([]);
  }, 30_000);
});
