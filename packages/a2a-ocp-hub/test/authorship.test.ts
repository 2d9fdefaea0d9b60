/**
 * Issue 38, authorship (hub side), against a real hub over real sockets: a
 * knowledge node or edge claimed for another author (`createdBy` ≠ `from`)
 * must carry that author's valid `ocpAuthorship`, in a stream, an update or
 * a sync page; otherwise the message is refused (`not_author`,
 * `authorship_invalid`) and never delivered.
 */
import type { KnowledgeNode } from "@ocp/a2a-ocp-messaging";
import { signAuthorship } from "@ocp/a2a-ocp-messaging/internal";
import { describe, expect, it } from "vitest";
import { hubPerTest, node, sendSigned, until } from "./support.js";

const hubs = hubPerTest();

const raw = (name: string) => hubs.signer(name);
const send = sendSigned;

function stream(to: string, nodes: KnowledgeNode[], edges: unknown[] = []) {
  return {
    type: "ocp.knowledge.stream" as const,
    to,
    payload: { streamId: "s-1", nodes, edges, isIncremental: true, sequenceNumber: 1 },
  };
}

describe("the hub refuses knowledge written in another agent's name", () => {
  it("a node whose createdBy is another agent, unsigned, is refused not_author and not delivered", async () => {
    const alice = await raw("alice");
    const bob = await raw("bob");
    const mallory = await raw("mallory");
    const { message, code } = await send(
      mallory,
      stream(bob.id.id, [node(alice.id.id, "alice-1")]),
    );
    expect(code).toBe("not_author");
    await new Promise((r) => setTimeout(r, 100));
    expect(bob.raw.delivered().some((d) => d.includes(message.id))).toBe(false);
  });

  it("a node signed by the sender but claiming another author, or with a forged author signature, is refused", async () => {
    const alice = await raw("alice");
    const bob = await raw("bob");
    const mallory = await raw("mallory");
    const byMallory = signAuthorship(
      node(alice.id.id, "alice-1"),
      mallory.id.id,
      mallory.id.secretKey,
    );
    expect((await send(mallory, stream(bob.id.id, [byMallory]))).code).toBe("not_author");
    const forged = {
      ...byMallory,
      ocpAuthorship: { ...byMallory.ocpAuthorship, signer: alice.id.id },
    };
    expect((await send(mallory, stream(bob.id.id, [forged]))).code).toBe("authorship_invalid");
    const tampered = {
      ...signAuthorship(node(alice.id.id, "alice-2"), alice.id.id, alice.id.secretKey),
      title: "changed by the relay",
    };
    expect((await send(mallory, stream(bob.id.id, [tampered]))).code).toBe("authorship_invalid");
  });

  it("updates, tombstones and sync pages are checked the same way", async () => {
    const alice = await raw("alice");
    const bob = await raw("bob");
    const mallory = await raw("mallory");
    const tomb = { ...node(alice.id.id, "alice-1"), ocpDeleted: true, ocpVersion: { x: 1 } };
    const update = await send(mallory, {
      type: "ocp.knowledge.update",
      to: bob.id.id,
      payload: {
        updates: [],
        deletions: [tomb.id],
        newEdges: [],
        deletedEdges: [],
        tombstones: [tomb],
      },
    });
    expect(update.code).toBe("not_author");
    const changes = await send(mallory, {
      type: "ocp.knowledge.update",
      to: bob.id.id,
      payload: {
        updates: [
          { nodeId: "alice-1", changes: { createdBy: alice.id.id }, changeType: "modified" },
        ],
        deletions: [],
        newEdges: [],
        deletedEdges: [],
      },
    });
    expect(changes.code).toBe("not_author");
    const edge = {
      id: "e-1",
      source: "a",
      target: "b",
      relationship: "r",
      weight: 1,
      createdBy: alice.id.id,
    };
    const page = await send(mallory, {
      type: "ocp.knowledge.sync.response",
      to: bob.id.id,
      payload: {
        syncId: "y",
        nodes: [],
        edges: [edge],
        versionVector: {},
        isComplete: true,
        checksum: "c",
      },
    });
    expect(page.code).toBe("not_author");
  });

  it("its own nodes, a relay of another author's signed node, and an editor's edit are accepted", async () => {
    const alice = await raw("alice");
    const bob = await raw("bob");
    const carol = await raw("carol");
    const own = await send(alice, stream(bob.id.id, [node(alice.id.id, "alice-1")]));
    expect(own.answer.type).toBe("ocp.hub.ack");
    const signed = signAuthorship(node(alice.id.id, "alice-2"), alice.id.id, alice.id.secretKey);
    const relayed = await send(bob, stream(carol.id.id, [signed]));
    expect(relayed.answer.type).toBe("ocp.hub.ack");
    await until(() => carol.raw.delivered().some((d) => d.includes(relayed.message.id)), "relay");
    const granted = { ...node(alice.id.id, "alice-3"), ocpEditors: [bob.id.id] };
    const edit = await send(bob, stream(carol.id.id, [granted]));
    expect(edit.answer.type).toBe("ocp.hub.ack");
  });
});
