/**
 * §8.4 the hub's rules for a sealed message it cannot read, over a real hub
 * (WebSocket, SQLite): it checks the signed `ocpSealed` declaration against
 * §8.5 and routes only to the declared recipients; a declaration it would
 * not allow is refused with a named code, and nobody receives the message.
 */
import { randomUUID } from "node:crypto";
import type { HubClient } from "@ocp/a2a-ocp-client";
import {
  type AgentIdentity,
  createMessage,
  type PlainMessage,
  signObject,
  type WireMessage,
} from "@ocp/a2a-ocp-messaging";
import { SEALED_ENVELOPE_FIELD, sealedAccessOf } from "@ocp/a2a-ocp-messaging/internal";
import { encryptMessage, generateIdentityWithEncryption } from "@ocp/a2a-ocp-messaging/node";
import { client, sampleNode, tempDir, testHubOptions, until } from "@ocp/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OCPHub } from "../src/index.js";

const dir = tempDir("ocp-hub-sealed-");
let hub: OCPHub;
const clients: HubClient[] = [];
beforeAll(async () => {
  hub = await OCPHub.start(testHubOptions(dir.dir));
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await hub.close();
  dir.cleanup();
});

async function join(name: string) {
  const id = generateIdentityWithEncryption(`a2a://${name}-${randomUUID()}`);
  const joined = await client(hub.url, id);
  clients.push(joined.client);
  return { id, ...joined };
}

/** A stream of a node Alice shares with `sharedWith`, sealed for `sealFor`, declared as `declare`. */
function sealed(
  alice: AgentIdentity,
  to: string | string[],
  sharedWith: string[],
  sealFor: AgentIdentity[],
  declare: { recipients?: string[]; omit?: boolean } = {},
): WireMessage {
  const node = sampleNode({ createdBy: alice.id, visibility: "private", sharedWith });
  const plain = createMessage({
    type: "ocp.knowledge.stream",
    from: alice.id,
    to,
    payload: { streamId: "s", nodes: [node], edges: [], isIncremental: true, sequenceNumber: 1 },
  }) as PlainMessage;
  const envelope =
    declare.omit === true
      ? plain
      : {
          ...plain,
          [SEALED_ENVELOPE_FIELD]: {
            recipients: declare.recipients ?? sealFor.map((i) => i.id),
            access: sealedAccessOf(plain.type, alice.id, plain.payload),
          },
        };
  const keys = sealFor.map((i) => ({ agentId: i.id, publicKey: i.encryption!.publicKey }));
  const encrypted = encryptMessage(envelope as PlainMessage, keys);
  return signObject(encrypted as Record<string, unknown>, alice.secretKey) as WireMessage;
}

describe("§8.4 the hub routes sealed messages by their signed declaration", () => {
  it("delivers a sealed broadcast to its declared recipients only", async () => {
    const [alice, bob, carol] = [await join("alice"), await join("bob"), await join("carol")];
    const message = sealed(alice.id, "broadcast", [bob.id.id], [alice.id, bob.id]);
    const ack = (await alice.client.send(message)) as { recipients: number };
    expect(ack.recipients).toBe(1);
    await until(() => bob.received.some((d) => d.message.id === message.id), "bob's delivery");
    expect(carol.received.some((d) => d.message.id === message.id)).toBe(false);
  });

  it("refuses sealed_recipient_not_allowed: a declared recipient the node's sharedWith does not name", async () => {
    const [alice, bob, carol] = [await join("alice"), await join("bob"), await join("carol")];
    const widened = sealed(
      alice.id,
      [bob.id.id, carol.id.id],
      [bob.id.id],
      [alice.id, bob.id, carol.id],
    );
    await expect(alice.client.send(widened)).rejects.toMatchObject({
      code: "sealed_recipient_not_allowed",
    });
    // Addressed to an agent that holds no key.
    const addressed = sealed(alice.id, carol.id.id, [bob.id.id], [alice.id, bob.id]);
    await expect(alice.client.send(addressed)).rejects.toMatchObject({
      code: "sealed_recipient_not_allowed",
    });
    const ids = [widened.id, addressed.id];
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const reader of [bob, carol]) {
      expect(reader.received.filter((d) => ids.includes(d.message.id))).toEqual([]);
    }
  });

  it("refuses sealed_envelope_invalid: no declaration, or declared recipients that are not the key holders", async () => {
    const [alice, bob, carol] = [await join("alice"), await join("bob"), await join("carol")];
    const undeclared = sealed(alice.id, bob.id.id, [bob.id.id], [alice.id, bob.id], { omit: true });
    await expect(alice.client.send(undeclared)).rejects.toMatchObject({
      code: "sealed_envelope_invalid",
    });
    // Keys for carol too, declared for alice and bob only: carol could read what the hub routed by.
    const hidden = sealed(alice.id, bob.id.id, [bob.id.id], [alice.id, bob.id, carol.id], {
      recipients: [alice.id.id, bob.id.id],
    });
    await expect(alice.client.send(hidden)).rejects.toMatchObject({
      code: "sealed_envelope_invalid",
    });
  });
});
