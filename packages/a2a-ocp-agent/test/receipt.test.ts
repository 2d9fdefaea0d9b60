import { generateIdentity, verifyMessage, type WireMessage } from "@ocp/a2a-ocp-messaging";
import { describe, expect, it } from "vitest";
import { OCPAgent } from "../src/agent.js";
import { MemoryNetwork } from "../src/link.js";
import { type MessageReceipt, messageDigest } from "../src/receipt.js";
import type { ReceivedResponse } from "../src/synthesis.js";
import { node, until } from "./support.js";

/** Two agents on one network; every message alice sends is recorded. */
function pair() {
  const net = new MemoryNetwork();
  const a = generateIdentity("a2a://alice");
  const b = generateIdentity("a2a://bob");
  const sent: WireMessage[] = [];
  const link = net.link(a.id, a.publicKey);
  const recording = {
    ...link,
    send: (m: WireMessage) => {
      sent.push(m);
      return link.send(m);
    },
  };
  const alice = new OCPAgent({ identity: a, link: recording }).start();
  const bob = new OCPAgent({ identity: b, link: net.link(b.id, b.publicKey) }).start();
  return { alice, bob, sent };
}

describe("message receipts", () => {
  it("a knowledge event names the signed message the nodes arrived in, by id, sender and digest", async () => {
    const { alice, bob, sent } = pair();
    const receipts: MessageReceipt[] = [];
    bob.on("knowledge", (_nodes, _from, receipt) => receipts.push(receipt));
    await bob.subscribe(alice.id, { deliveryMode: "push" });
    await alice.streamKnowledge([node({ createdBy: alice.id, title: "Retry with jitter" })]);
    await until(() => receipts.length === 1, "bob receives the node");
    const receipt = receipts[0] as MessageReceipt;
    const message = sent.find((m) => m["id"] === receipt.messageId);
    expect(message?.["type"]).toBe("ocp.knowledge.stream");
    expect(receipt.from).toBe(alice.id);
    expect(receipt.type).toBe("ocp.knowledge.stream");
    expect(receipt.digest).toBe(messageDigest(message ?? {}));
    expect(receipt.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    // The digest covers the signature: the message it names verifies under alice's key.
    expect((await verifyMessage(message ?? {}, alice.lookupKey)).ok).toBe(true);
    await Promise.all([alice.close(), bob.close()]);
  });

  it("a collective response carries the receipt of the message it came in", async () => {
    const { alice, bob, sent } = pair();
    await alice.streamKnowledge([node({ createdBy: alice.id, title: "Retry with jitter" })]);
    const result = await bob.collectiveQuery("retry jitter", { minResponses: 1, timeout: 20_000 });
    const response = result.responses[0] as ReceivedResponse;
    const message = sent.find((m) => m["id"] === response.receipt?.messageId);
    expect(message?.["type"]).toBe("ocp.collective.response");
    expect(response.receipt?.digest).toBe(messageDigest(message ?? {}));
    await Promise.all([alice.close(), bob.close()]);
  });
});
