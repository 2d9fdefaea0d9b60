/**
 * §12.2 compression over a direct peer link (no hub): a listening agent and
 * one that connects to it, both announcing compression in their cards; the
 * frames the listener sends cross a wire tap.
 */
import { gzipSync } from "node:zlib";
import {
  type AgentIdentity,
  createAgentProfile,
  createMessage,
  generateIdentity,
  type KnowledgeNode,
  type PlainMessage,
  signObject,
} from "@ocp/a2a-ocp-messaging";
import { MAX_DECOMPRESSED_BYTES } from "@ocp/a2a-ocp-messaging/internal";
import { compressMessage, nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { describe, expect, it } from "vitest";
import { OCPAgent } from "../src/agent.js";
import { announceCompression } from "../src/compression.js";
import type { AgentLink } from "../src/link.js";
import { listenForPeers, type PeerListener, peerLink } from "../src/peer.js";
import { closersAfterEach, node, until } from "./support.js";
import { wireTap } from "./wire-tap.js";

const cleanup = closersAfterEach();

const announced = (identity: AgentIdentity) =>
  createAgentProfile(identity, { extra: announceCompression() }, nativeEd25519);

/** Nodes whose text repeats, as a team's notes do, well above the threshold. */
function bigNodes(createdBy: string, marker: string, over: Partial<KnowledgeNode> = {}) {
  return Array.from({ length: 4 }, (_, i) =>
    node({
      createdBy,
      title: `${marker} ${i}`,
      description: `${marker}: the hub forwards the sender's exact bytes. `.repeat(40),
      ...over,
    }),
  );
}

async function pair(): Promise<{
  listener: PeerListener;
  alice: OCPAgent;
  bob: OCPAgent;
  bobLink: AgentLink;
  a: AgentIdentity;
  b: AgentIdentity;
  frames: string[];
}> {
  const a = generateIdentity(`a2a://zip-alice-${cleanup.length}-${process.pid}`);
  const b = generateIdentity(`a2a://zip-bob-${cleanup.length}-${process.pid}`);
  const listener = await listenForPeers({
    identity: a,
    profile: announced(a),
    allowedPeers: [{ id: b.id, publicKey: b.publicKey }],
  });
  const alice = new OCPAgent({ identity: a, link: listener.link }).start();
  cleanup.push(() => alice.close());
  const tap = await wireTap(listener.url);
  cleanup.push(() => tap.close());
  const bobLink = await peerLink({
    url: tap.url,
    identity: b,
    profile: announced(b),
    reconnect: false,
  });
  const bob = new OCPAgent({ identity: b, link: bobLink }).start();
  cleanup.push(() => bob.close());
  await until(() => listener.peers().includes(b.id), "bob registered");
  return { listener, alice, bob, bobLink, a, b, frames: tap.frames };
}

describe("§12.2 compression over a peer link", () => {
  it("both directions go compressed to a peer whose card announces it, and arrive intact", async () => {
    const { alice, bob, frames } = await pair();
    await bob.subscribe(alice.id, { deliveryMode: "push", batchSize: 50 });
    await alice.subscribe(bob.id, { deliveryMode: "push", batchSize: 50 });
    await bob.beacon({ status: "idle", availability: "available" });
    await until(() => alice.presence.get(bob.id) !== undefined, "subscriptions processed");

    const fromAlice = bigNodes(alice.id, "peer-down");
    await alice.streamKnowledge(fromAlice);
    await until(() => fromAlice.every((n) => bob.node(n.id) !== undefined), "bob has them");
    const streams = frames.filter((f) => f.includes('"ocp.knowledge.stream"'));
    expect(streams).toHaveLength(1);
    expect(JSON.parse(streams[0] as string)).toMatchObject({ compression: "gzip" });
    expect(frames.some((f) => f.includes("peer-down"))).toBe(false);
    expect(bob.node(fromAlice[0]?.id ?? "")?.description).toBe(fromAlice[0]?.description);

    // The listener inflates what a peer sends (capped), as a hub does.
    const fromBob = bigNodes(bob.id, "peer-up");
    await bob.streamKnowledge(fromBob);
    await until(() => fromBob.every((n) => alice.node(n.id) !== undefined), "alice has them");
    expect(alice.node(fromBob[3]?.id ?? "")?.description).toBe(fromBob[3]?.description);
  });

  it("a zip bomb or a corrupt payload from a peer is refused with its reason to the sender and is an error event of the listening agent", async () => {
    const { alice, bobLink, b } = await pair();
    const errors: Array<{ code?: unknown }> = [];
    alice.on("error", (error) => errors.push(error as { code?: unknown }));
    const signed = (compressedPayload: string) => {
      const { payload: _plain, ...envelope } = createMessage({
        type: "ocp.knowledge.stream",
        from: b.id,
        to: alice.id,
        payload: { streamId: "s", nodes: [], isIncremental: true, sequenceNumber: 1 },
      });
      return signObject(
        { ...envelope, compression: "gzip" as const, compressedPayload },
        b.secretKey,
        nativeEd25519,
      );
    };
    const bomb = gzipSync(Buffer.alloc(MAX_DECOMPRESSED_BYTES + 1, 0x7b)).toString("base64");
    await expect(bobLink.send(signed(bomb))).rejects.toMatchObject({
      code: "decompressed_too_large",
    });
    await expect(
      bobLink.send(signed(Buffer.from("garbage").toString("base64"))),
    ).rejects.toMatchObject({
      code: "decompression_failed",
    });
    await until(() => errors.length === 2, "two error events");
    expect(errors.map((e) => e.code)).toEqual(["decompressed_too_large", "decompression_failed"]);
  });

  it("the listener checks §8.5 visibility on the inflated payload: a compressed private node goes to nobody it is not shared with", async () => {
    const { listener, alice, bob, a, frames } = await pair();
    const secret = bigNodes(alice.id, "compressed-secret", { visibility: "private" });
    const plain = createMessage({
      type: "ocp.knowledge.stream",
      from: alice.id,
      to: bob.id,
      payload: { streamId: "s", nodes: secret, isIncremental: true, sequenceNumber: 1 },
    }) as PlainMessage;
    const compressed = compressMessage(plain);
    expect(compressed).toHaveProperty("compressedPayload");
    const receipt = await listener.link.send(signObject(compressed, a.secretKey, nativeEd25519));
    expect(receipt).toMatchObject({ recipients: 0, excluded: 1 });
    await bob.beacon({ status: "idle", availability: "available" });
    await until(() => alice.presence.get(bob.id) !== undefined, "later traffic arrives");
    expect(frames.some((f) => f.includes(String(compressed.id)))).toBe(false);
    expect(bob.node(secret[0]?.id ?? "")).toBeUndefined();
  });
});
