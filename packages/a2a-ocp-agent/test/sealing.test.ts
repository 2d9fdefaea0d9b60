/**
 * §8.4 the agent's sealing rules against real agents: what it seals and for
 * whom, that it never sends in clear without a key, and every named reason a
 * sealed message is refused with (an `error` event, never a silent drop).
 */
import {
  type AgentIdentity,
  createAgentProfile,
  createMessage,
  type PlainMessage,
  signObject,
} from "@ocp/a2a-ocp-messaging";
import { SEALED_ENVELOPE_FIELD, sealedAccessOf } from "@ocp/a2a-ocp-messaging/internal";
import { encryptMessage, generateIdentityWithEncryption } from "@ocp/a2a-ocp-messaging/node";
import { isOcpError } from "@ocp/types";
import { afterEach, describe, expect, it } from "vitest";
import { OCPAgent } from "../src/agent.js";
import { rotateEncryptionKey } from "../src/key-rotation.js";
import { ENCRYPTION_KEY_GRACE_MS } from "../src/limits.js";
import { type AgentLink, MemoryNetwork } from "../src/link.js";
import type { RetiredEncryptionKey } from "../src/unsealing.js";
import { node, until } from "./support.js";

const agents: OCPAgent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

/** A link that hands the agent whatever the test delivers, and records what it sends. */
function handLink(keys: Map<string, Uint8Array>): {
  link: AgentLink;
  deliver: (m: Record<string, unknown>) => void;
  sent: Record<string, unknown>[];
} {
  let handler: ((m: PlainMessage) => void) | undefined;
  const sent: Record<string, unknown>[] = [];
  return {
    sent,
    deliver: (m) => handler?.(JSON.parse(JSON.stringify(m)) as PlainMessage),
    link: {
      lookupKey: (id) => keys.get(id),
      send: async (m) => {
        sent.push(m);
        return {};
      },
      onMessage: (h) => {
        handler = h;
        return () => {
          handler = undefined;
        };
      },
      close: async () => {},
    },
  };
}

function sharedNode(author: AgentIdentity, readers: string[], title: string) {
  return node({ createdBy: author.id, title, visibility: "private", sharedWith: readers });
}

/** Alice's signed stream of `nodes` to `to`, sealed for `sealFor`, declaring `access`. */
function sealedStream(
  alice: AgentIdentity,
  to: string,
  nodes: unknown[],
  sealFor: AgentIdentity[],
  over: { access?: unknown[]; from?: AgentIdentity } = {},
): Record<string, unknown> {
  const from = over.from ?? alice;
  const plain = createMessage({
    type: "ocp.knowledge.stream",
    from: from.id,
    to,
    payload: {
      streamId: "s1",
      nodes: nodes as never,
      edges: [],
      isIncremental: true,
      sequenceNumber: 1,
    },
  }) as PlainMessage;
  const access = over.access ?? sealedAccessOf(plain.type, alice.id, plain.payload);
  const declared = {
    ...plain,
    [SEALED_ENVELOPE_FIELD]: { recipients: sealFor.map((i) => i.id), access },
  } as PlainMessage;
  const keys = sealFor.map((i) => ({ agentId: i.id, publicKey: i.encryption!.publicKey }));
  return signObject(encryptMessage(declared, keys) as Record<string, unknown>, from.secretKey);
}

function receiver(
  identity: AgentIdentity,
  keys: Map<string, Uint8Array>,
  retired: RetiredEncryptionKey[] = [],
) {
  const hand = handLink(keys);
  const errors: { code: string }[] = [];
  const agent = new OCPAgent({ identity, link: hand.link, retiredEncryptionKeys: retired }).start();
  agent.on("error", (e) => errors.push(e as { code: string }));
  agents.push(agent);
  return { agent, errors, deliver: hand.deliver };
}

describe("§8.4 sealing on send", () => {
  it("seals a private node shared with bob for exactly alice and bob, declaring its access in ocpSealed", async () => {
    const net = new MemoryNetwork();
    const [alice, bob] = ["alice", "bob"].map((n) =>
      generateIdentityWithEncryption(`a2a://${n}`),
    ) as [AgentIdentity, AgentIdentity];
    const sent: Record<string, unknown>[] = [];
    const aliceLink = net.link(alice.id, alice.publicKey, createAgentProfile(alice));
    const spy: AgentLink = {
      ...aliceLink,
      send: (m) => {
        sent.push(m);
        return aliceLink.send(m);
      },
    };
    const a = new OCPAgent({ identity: alice, link: spy }).start();
    const b = new OCPAgent({
      identity: bob,
      link: net.link(bob.id, bob.publicKey, createAgentProfile(bob)),
    }).start();
    agents.push(a, b);
    await b.subscribe(alice.id, { deliveryMode: "push" });
    await b.beacon({ status: "idle", availability: "available" });
    await until(() => a.presence.get(bob.id) !== undefined, "subscription");
    const secret = sharedNode(alice, [bob.id], "rotation runbook MARK-1");
    await a.streamKnowledge([secret]);
    await until(() => b.node(secret.id) !== undefined, "bob has the node");
    const stream = sent.find((m) => m["type"] === "ocp.knowledge.stream")!;
    expect(stream["encrypted"]).toBe(true);
    expect(JSON.stringify(stream)).not.toContain("MARK-1");
    expect(stream[SEALED_ENVELOPE_FIELD]).toEqual({
      recipients: [alice.id, bob.id].sort(),
      access: [{ createdBy: alice.id, visibility: "private", sharedWith: [bob.id] }],
    });
  });

  it("never sends in clear: a reader without a verified encryption key is sealing_key_unknown", async () => {
    const net = new MemoryNetwork();
    const alice = generateIdentityWithEncryption("a2a://alice");
    const bob = generateIdentityWithEncryption("a2a://bob");
    const { encryption: _none, ...bobWithoutKey } = bob;
    const sent: Record<string, unknown>[] = [];
    const aliceLink = net.link(alice.id, alice.publicKey, createAgentProfile(alice));
    // Bob's profile publishes no encryption key.
    net.link(bob.id, bob.publicKey, createAgentProfile(bobWithoutKey));
    const a = new OCPAgent({
      identity: alice,
      link: { ...aliceLink, send: async (m) => sent.push(m) },
    });
    agents.push(a);
    const error = await a
      .send("ocp.knowledge.stream", bob.id, {
        streamId: "s",
        nodes: [sharedNode(alice, [bob.id], "MARK-2")],
        edges: [],
        isIncremental: true,
        sequenceNumber: 1,
      })
      .catch((e: unknown) => e);
    expect(isOcpError(error) && error.code).toBe("sealing_key_unknown");
    expect(sent).toEqual([]);
  });

  it("refuses to address a private shared node to an agent its sharedWith does not name", async () => {
    const alice = generateIdentityWithEncryption("a2a://alice");
    const hand = handLink(new Map());
    const a = new OCPAgent({ identity: alice, link: hand.link });
    agents.push(a);
    const error = await a
      .send("ocp.knowledge.stream", "a2a://carol", {
        streamId: "s",
        nodes: [sharedNode(alice, ["a2a://bob"], "MARK-3")],
        edges: [],
        isIncremental: true,
        sequenceNumber: 1,
      })
      .catch((e: unknown) => e);
    expect(isOcpError(error) && error.code).toBe("sealed_recipient_not_allowed");
    expect(hand.sent).toEqual([]);
  });

  it("seals a message marked sensitive (per call, and by the agent's sealDirect default) for its one recipient", async () => {
    const net = new MemoryNetwork();
    const [alice, bob] = ["alice", "bob"].map((n) =>
      generateIdentityWithEncryption(`a2a://${n}`),
    ) as [AgentIdentity, AgentIdentity];
    const sent: Record<string, unknown>[] = [];
    const aliceLink = net.link(alice.id, alice.publicKey, createAgentProfile(alice));
    net.link(bob.id, bob.publicKey, createAgentProfile(bob));
    const spy: AgentLink = { ...aliceLink, send: async (m) => sent.push(m) };
    const plain = new OCPAgent({ identity: alice, link: spy });
    const direct = new OCPAgent({ identity: alice, link: spy, sealDirect: true });
    agents.push(plain, direct);
    await plain.send("ocp.awareness.query", bob.id, { queryId: "q1" });
    await plain.send("ocp.awareness.query", bob.id, { queryId: "q2" }, { sensitive: true });
    await direct.send("ocp.awareness.query", bob.id, { queryId: "q3" });
    await direct.send("ocp.awareness.query", bob.id, { queryId: "q4" }, { sensitive: false });
    expect(sent.map((m) => m["encrypted"] === true)).toEqual([false, true, true, false]);
    expect(sent[1]?.[SEALED_ENVELOPE_FIELD]).toEqual({ recipients: [bob.id], access: [] });
    const broadcast = await plain
      .send(
        "ocp.awareness.beacon",
        "broadcast",
        { status: "idle", availability: "available" },
        { sensitive: true },
      )
      .catch((e: unknown) => e);
    expect(isOcpError(broadcast) && broadcast.code).toBe("sealed_broadcast");
  });
});

describe("§8.4 the receive side refuses with a named reason", () => {
  const alice = generateIdentityWithEncryption("a2a://alice");
  const bob = generateIdentityWithEncryption("a2a://bob");
  const carol = generateIdentityWithEncryption("a2a://carol");
  const keys = new Map([alice, bob, carol].map((i) => [i.id, i.publicKey]));

  /** Bob's receiver, and Alice's private node `title` shared with Bob in her stream to Bob sealed for both. */
  function aliceToBob(title: string) {
    const r = receiver(bob, keys);
    const secret = sharedNode(alice, [bob.id], title);
    return { r, secret, sealed: sealedStream(alice, bob.id, [secret], [alice, bob]) };
  }

  /** Waits for `r`'s two refusals: their codes are `codes`, and the node `nodeId` was not merged. */
  async function refusedBoth(r: ReturnType<typeof receiver>, nodeId: string, codes: string[]) {
    await until(() => r.errors.length === 2, "both refusals");
    expect(r.errors.map((e) => e.code)).toEqual(codes);
    expect(r.agent.node(nodeId)).toBeUndefined();
  }

  it("opens what is sealed for it and merges the node", async () => {
    const { r, secret, sealed } = aliceToBob("MARK-OK");
    r.deliver(sealed);
    await until(() => r.agent.node(secret.id) !== undefined, "the node");
    expect(r.errors).toEqual([]);
  });

  it("sealed_not_for_us: a message sealed for someone else", async () => {
    const r = receiver(carol, keys);
    const secret = sharedNode(alice, [bob.id], "MARK-X");
    r.deliver(sealedStream(alice, carol.id, [secret], [alice, bob]));
    await until(() => r.errors.length === 1, "the refusal");
    expect(r.errors[0]?.code).toBe("sealed_not_for_us");
    expect(r.agent.node(secret.id)).toBeUndefined();
  });

  it("sealed_signature_invalid: a signature that does not cover the sealed bytes (signed before sealing; or bytes changed after)", async () => {
    const { r, secret, sealed } = aliceToBob("MARK-S");
    // The signature of the plain message, carried over onto the sealed one.
    const plainSigned = signObject(
      { ...sealed, encrypted: undefined, signature: undefined },
      alice.secretKey,
    );
    r.deliver({ ...sealed, signature: plainSigned["signature"] });
    // A ciphertext changed in transit under the sender's signature.
    const payload = sealed["payload"] as { ciphertext: string };
    const flipped = Buffer.from(payload.ciphertext, "base64");
    flipped[20] = (flipped[20] ?? 0) ^ 1;
    r.deliver({ ...sealed, payload: { ...payload, ciphertext: flipped.toString("base64") } });
    await refusedBoth(r, secret.id, ["sealed_signature_invalid", "sealed_signature_invalid"]);
  });

  it("sealed_tampered: a ciphertext that fails authentication under a valid signature (moved into another sender's message)", async () => {
    const { r, secret, sealed: original } = aliceToBob("MARK-T");
    // Carol copies Alice's sealed payload into a message of her own and signs it: the AAD names Alice.
    const moved = signObject(
      { ...original, from: carol.id, signature: undefined, id: `moved-${Date.now()}` },
      carol.secretKey,
    );
    r.deliver(moved);
    // A sender that signed a corrupted ciphertext.
    const payload = original["payload"] as { ciphertext: string };
    const flipped = Buffer.from(payload.ciphertext, "base64");
    flipped[flipped.length - 1] = (flipped[flipped.length - 1] ?? 0) ^ 1;
    r.deliver(
      signObject(
        {
          ...original,
          id: `corrupt-${Date.now()}`,
          signature: undefined,
          payload: { ...payload, ciphertext: flipped.toString("base64") },
        },
        alice.secretKey,
      ),
    );
    await refusedBoth(r, secret.id, ["sealed_tampered", "sealed_tampered"]);
  });

  it("sealed_access_mismatch and sealed_envelope_invalid: a declaration that hides what is sealed, or none", async () => {
    const { r, secret, sealed: undeclared } = aliceToBob("MARK-A");
    r.deliver(sealedStream(alice, bob.id, [secret], [alice, bob], { access: [] }));
    r.deliver(
      signObject(
        { ...undeclared, [SEALED_ENVELOPE_FIELD]: undefined, signature: undefined },
        alice.secretKey,
      ),
    );
    await refusedBoth(r, secret.id, ["sealed_access_mismatch", "sealed_envelope_invalid"]);
  });

  it("a rotated key still opens messages sealed for the old one within ENCRYPTION_KEY_GRACE_MS, not after", async () => {
    const { identity: rotated, retired } = rotateEncryptionKey(bob, Date.now());
    expect(rotated.encryption?.publicKey).not.toEqual(bob.encryption?.publicKey);
    const old = sharedNode(alice, [bob.id], "MARK-R");
    const forOldKey = sealedStream(alice, bob.id, [old], [alice, bob]);
    const withoutRetired = receiver(rotated, keys);
    withoutRetired.deliver(forOldKey);
    await until(() => withoutRetired.errors.length === 1, "the refusal without the retired key");
    expect(withoutRetired.errors[0]?.code).toBe("sealed_tampered");
    const inGrace = receiver(rotated, keys, [retired!]);
    inGrace.deliver(forOldKey);
    await until(() => inGrace.agent.node(old.id) !== undefined, "opened with the retired key");
    const expired = receiver(rotated, keys, [
      { ...retired!, retiredAt: Date.now() - ENCRYPTION_KEY_GRACE_MS - 1 },
    ]);
    expired.deliver(forOldKey);
    await until(() => expired.errors.length === 1, "the refusal after the grace period");
    expect(expired.errors[0]?.code).toBe("sealed_tampered");
    expect(inGrace.errors).toEqual([]);
  });
});
