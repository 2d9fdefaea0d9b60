import {
  type AgentIdentity,
  createMessage,
  type KnowledgeNode,
  signObject,
} from "@ocp/a2a-ocp-messaging";
import type { RawAgent } from "@ocp/testkit";
import { describe, expect, it } from "vitest";
import { hubPerTest, identity, until } from "./support.js";

const fixture = hubPerTest();
const join = (name: string) => fixture.join(name);

async function raw(name: string): Promise<{ id: AgentIdentity; agent: RawAgent }> {
  const id = identity(name);
  return { id, agent: await fixture.raw(id) };
}

function signed(from: AgentIdentity, init: Parameters<typeof createMessage>[0]): string {
  return JSON.stringify(signObject(createMessage(init), from.secretKey));
}

/** The hub's answer (ack or reject) to message `id`. */
async function answerTo(agent: RawAgent, id: string) {
  await until(
    () => agent.controls().some((c) => c.payload["id"] === id),
    `the hub's answer to ${id}`,
  );
  return agent.controls().find((c) => c.payload["id"] === id)!;
}

describe("I-JSON at the hub: duplicate member names", () => {
  it("refuses a signed message with a second `from` spliced in before the real one (duplicate_key), forwarding nothing", async () => {
    const mallory = await raw("mallory");
    const victim = await join("victim");
    const bob = await raw("bob");
    const text = signed(mallory.id, {
      type: "ocp.custom.note",
      from: mallory.id.id,
      to: bob.id.id,
      payload: { says: "transfer approved" },
    });
    // JSON.parse keeps the last `from` (mallory's, so the signature verifies);
    // a first-key parser would read the victim.
    const forged = text.replace(
      `"from":"${mallory.id.id}"`,
      `"from":"${victim.id.id}","from":"${mallory.id.id}"`,
    );
    expect(forged).not.toBe(text);
    const id = (JSON.parse(forged) as { id: string }).id;
    mallory.agent.send(forged);
    const answer = await answerTo(mallory.agent, id);
    expect(answer.type).toBe("ocp.hub.reject");
    expect(answer.payload["code"]).toBe("duplicate_key");
    expect(String(answer.payload["message"])).toContain('"from"');
    // The same message without the splice still goes through: only the duplicate was refused.
    const honest = signed(mallory.id, {
      type: "ocp.custom.note",
      from: mallory.id.id,
      to: bob.id.id,
      payload: { says: "hello" },
    });
    mallory.agent.send(honest);
    await until(() => bob.agent.delivered().length === 1, "the honest message");
    expect(bob.agent.delivered()).toEqual([honest]);
  });

  it("refuses duplicates nested in the payload and duplicates spelled with escapes", async () => {
    const mallory = await raw("mallory");
    const bob = await raw("bob");
    const base = signed(mallory.id, {
      type: "ocp.custom.note",
      from: mallory.id.id,
      to: bob.id.id,
      payload: { amount: 1 },
    });
    const nested = base.replace('"amount":1', '"amount":1000,"amount":1');
    const escaped = base.replace(
      '"type":"ocp.custom.note"',
      '"\\u0074ype":"ocp.custom.evil","type":"ocp.custom.note"',
    );
    for (const text of [nested, escaped]) {
      mallory.agent.send(text);
      const answer = await answerTo(mallory.agent, (JSON.parse(text) as { id: string }).id);
      expect(answer.payload["code"]).toBe("duplicate_key");
    }
    expect(bob.agent.delivered()).toEqual([]);
  });
});

describe("§8.5 visibility holds in every message type that carries a node", () => {
  const privateNode = (createdBy: string, sharedWith: string[]): KnowledgeNode => ({
    id: "secret-1",
    type: "fact",
    title: "the secret",
    data: { secret: "s3cr3t" },
    confidence: 1,
    timestamp: new Date().toISOString(),
    createdBy,
    tags: [],
    visibility: "private",
    sharedWith,
  });

  const carriers: Array<
    [
      string,
      (from: string, node: KnowledgeNode) => { type: string; payload: Record<string, unknown> },
    ]
  > = [
    [
      "ocp.collective.response findings",
      (_from, node) => ({
        type: "ocp.collective.response",
        payload: {
          queryId: "q1",
          findings: [{ node, relevance: 0.9 }],
          confidence: 0.9,
          processingTime: 5,
        },
      }),
    ],
    [
      "ocp.sync.conflict versions",
      (_from, node) => ({
        type: "ocp.sync.conflict",
        payload: {
          syncId: "s1",
          conflicts: [{ type: "node", itemId: node.id, localVersion: node, remoteVersion: node }],
        },
      }),
    ],
    [
      "ocp.custom.* payloads",
      (_from, node) => ({ type: "ocp.custom.share", payload: { deep: [{ node }] } }),
    ],
    [
      "a loose member of a known payload",
      (_from, node) => ({
        type: "ocp.awareness.beacon",
        payload: { status: "working", availability: "available", attachment: node },
      }),
    ],
  ];

  for (const [name, carrier] of carriers) {
    it(`${name}: reaches the agent it is shared with, never an excluded one (the ack counts it)`, async () => {
      const alice = await join("alice");
      const bob = await raw("bob");
      const carol = await raw("carol");
      const { type, payload } = carrier(alice.id.id, privateNode(alice.id.id, [bob.id.id]));
      const receipt = await alice.client.send({
        type,
        to: [bob.id.id, carol.id.id],
        payload,
      } as never);
      expect(receipt.recipients).toBe(1);
      expect(receipt.excluded).toBe(1);
      await until(() => bob.agent.delivered().length === 1, "bob's copy");
      // A marker after the secret: carol is connected and reading, and got only the marker.
      await alice.client.send({ type: "ocp.custom.marker", to: carol.id.id, payload: {} });
      await until(() => carol.agent.delivered().length === 1, "carol's marker");
      expect(carol.agent.delivered().join("")).not.toContain("s3cr3t");
    });
  }

  it("a broadcast carrying a node with a visibility that is not a level reaches nobody but sharedWith", async () => {
    const alice = await join("alice");
    const bob = await raw("bob");
    const carol = await raw("carol");
    const node = { ...privateNode(alice.id.id, [bob.id.id]), visibility: "everyone-ish" };
    const receipt = await alice.client.send({
      type: "ocp.custom.share",
      to: [bob.id.id, carol.id.id],
      payload: { node },
    });
    expect(receipt).toMatchObject({ recipients: 1, excluded: 1 });
  });
});
