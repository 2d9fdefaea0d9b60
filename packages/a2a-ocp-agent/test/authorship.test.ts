/**
 * Issue 38, authorship (agent side): only a node's author, or an editor the
 * author listed, changes it; a relayed node stays verifiably its author's.
 * Through a real hub (WebSocket, SQLite), over a peer link, and in memory.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HubClient } from "@ocp/a2a-ocp-client";
import { OCPHub } from "@ocp/a2a-ocp-hub";
import {
  type AgentIdentity,
  createMessage,
  generateIdentity,
  type KnowledgeNode,
  signObject,
} from "@ocp/a2a-ocp-messaging";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { OCPAgent } from "../src/agent.js";
import type { KnowledgeRefusal } from "../src/authority.js";
import { hubLink } from "../src/hub-link.js";
import type { AgentLink } from "../src/link.js";
import { MemoryNetwork } from "../src/link.js";
import { listenForPeers, peerLink } from "../src/peer.js";
import { SqliteGraph } from "../src/sqlite/sqlite-graph.js";
import { node, until } from "./support.js";

const dir = mkdtempSync(join(tmpdir(), "ocp-authorship-"));
let hub: OCPHub;
let cleanup: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  hub = await OCPHub.start({ dbPath: join(dir, "hub.sqlite"), onError: () => {} });
});
afterEach(async () => {
  for (const c of cleanup.reverse()) await c().catch(() => undefined);
  cleanup = [];
});
afterAll(async () => {
  await hub.close();
  rmSync(dir, { recursive: true, force: true });
});

let counter = 0;
function id(name: string): AgentIdentity {
  counter += 1;
  return generateIdentity(`a2a://${name}-${process.pid}-${counter}`);
}

/** An agent over the hub, its refusals recorded. */
async function hubAgent(name: string) {
  const identity = id(name);
  const client = new HubClient({ url: hub.url, identity, transport: { reconnectBaseMs: 20 } });
  await client.connect();
  return started(
    identity,
    hubLink(client),
    new SqliteGraph(identity.id, join(dir, `${identity.id.slice(6)}.db`)),
  );
}

function started(identity: AgentIdentity, link: AgentLink, graph?: SqliteGraph) {
  const agent = new OCPAgent({ identity, link, ...(graph === undefined ? {} : { graph }) }).start();
  const refused: KnowledgeRefusal[] = [];
  agent.on("refused", (r) => refused.push(r));
  cleanup.push(() => agent.close());
  return { agent, identity, link, refused };
}

/** Sends a raw signed message on `link` as `from` (what a hostile or plain agent writes). */
function raw(
  link: AgentLink,
  from: AgentIdentity,
  type: string,
  to: string,
  payload: Record<string, unknown>,
) {
  const message = createMessage({ type, from: from.id, to, payload } as Parameters<
    typeof createMessage
  >[0]);
  return link.send(signObject(message, from.secretKey));
}

const stream = (nodes: unknown[], edges: unknown[] = []) => ({
  streamId: `s-${++counter}`,
  nodes,
  edges,
  isIncremental: true,
  sequenceNumber: 1,
});
const update = (over: Record<string, unknown>) => ({
  updates: [],
  deletions: [],
  newEdges: [],
  deletedEdges: [],
  ...over,
});

/** Alice's node and edge, synced to `bob`; Mallory then tries to overwrite, re-author and delete them. */
async function overwriteAttack(
  alice: OCPAgent,
  bob: { agent: OCPAgent; refused: KnowledgeRefusal[] },
  mallory: { link: AgentLink; identity: AgentIdentity },
) {
  const a = node({ createdBy: alice.id, title: "Deploys freeze on Fridays" });
  const b = node({ createdBy: alice.id, title: "On-call rota" });
  const edge = {
    id: `edge-${++counter}`,
    source: a.id,
    target: b.id,
    relationship: "needs",
    weight: 1,
  };
  await alice.streamKnowledge([a, b], [edge]);
  await bob.agent.syncKnowledge(alice.id);
  const before = JSON.stringify([bob.agent.node(a.id), bob.agent.graph.getEdge(edge.id)]);
  expect(bob.agent.node(a.id)?.createdBy).toBe(alice.id);
  const to = bob.agent.id;
  const m = mallory.identity.id;
  // The overwrite as Mallory's own (createdBy = Mallory: the hub cannot know it is Alice's id).
  await raw(mallory.link, mallory.identity, "ocp.knowledge.stream", to, {
    ...stream(
      [{ ...a, title: "Deploy any time", createdBy: m }],
      [{ ...edge, createdBy: m, weight: 0.1 }],
    ),
  });
  // A NodeUpdate, a plain deletion of the node and of the edge.
  await raw(
    mallory.link,
    mallory.identity,
    "ocp.knowledge.update",
    to,
    update({
      updates: [{ nodeId: a.id, changes: { title: "poisoned" }, changeType: "modified" }],
      deletions: [b.id],
      deletedEdges: [edge.id],
    }),
  );
  await until(() => bob.refused.length >= 5, "five refusals");
  expect(JSON.stringify([bob.agent.node(a.id), bob.agent.graph.getEdge(edge.id)])).toBe(before);
  expect(bob.agent.node(b.id)?.title).toBe("On-call rota");
  expect(bob.refused.map((r) => [r.kind, r.itemId, r.reason, r.from]).sort()).toEqual(
    [
      ["node", a.id, "author_changed", m],
      ["edge", edge.id, "author_changed", m],
      ["node", a.id, "not_author", m],
      ["node", b.id, "not_author", m],
      ["edge", edge.id, "not_author", m],
    ].sort(),
  );
}

describe("only a node's author changes it (issue 38)", () => {
  it("through a real hub: Mallory's overwrite, re-authoring and deletion of Alice's node and edge leave Bob's graph unchanged, each a refused event", async () => {
    const alice = await hubAgent("alice");
    const bob = await hubAgent("bob");
    const mallory = await hubAgent("mallory");
    await overwriteAttack(alice.agent, bob, mallory);
  }, 30_000);

  it("over a peer link (listenForPeers): the same attack is refused the same way", async () => {
    const b = id("bob");
    const a = id("alice");
    const m = id("mallory");
    // Both are admitted members: the attack is a member acting on another's data.
    const listener = await listenForPeers({
      identity: b,
      allowedPeers: [a, m].map((peer) => ({ id: peer.id, publicKey: peer.publicKey })),
    });
    const bob = started(b, listener.link);
    const alice = started(a, await peerLink({ url: listener.url, identity: a, reconnect: false }));
    const malloryLink = await peerLink({ url: listener.url, identity: m, reconnect: false });
    cleanup.push(() => malloryLink.close());
    await until(() => listener.peers().includes(a.id) && listener.peers().includes(m.id), "peers");
    await overwriteAttack(alice.agent, bob, { link: malloryLink, identity: m });
  }, 30_000);

  it("relay: Bob re-shares Alice's node to Carol unchanged, Carol stores it as Alice's; a node Bob changed is refused", async () => {
    const alice = await hubAgent("alice");
    const bob = await hubAgent("bob");
    const carol = await hubAgent("carol");
    const note = node({ createdBy: alice.agent.id, title: "Rotate keys quarterly" });
    await alice.agent.streamKnowledge([note]);
    await bob.agent.syncKnowledge(alice.agent.id);
    // Sync relays it (Carol never talks to Alice) ...
    await carol.agent.syncKnowledge(bob.agent.id);
    expect(carol.agent.node(note.id)).toEqual(alice.agent.node(note.id));
    expect(carol.agent.node(note.id)?.["ocpAuthorship"]).toMatchObject({ signer: alice.agent.id });
    // ... and so does a stream: Bob streams the node as he holds it to a subscriber.
    const dave = await hubAgent("dave");
    await dave.agent.subscribe(bob.agent.id, { deliveryMode: "push" });
    await until(() => dave.agent.node(note.id) !== undefined, "the relayed stream");
    expect(dave.agent.node(note.id)).toEqual(alice.agent.node(note.id));
    const held = bob.agent.node(note.id) as KnowledgeNode;
    // Bob cannot pass a changed copy off as Alice's: his own runtime refuses, and so does Carol's.
    await expect(
      bob.agent.streamKnowledge([{ ...held, title: "Never rotate" }]),
    ).rejects.toMatchObject({
      code: "authorship_invalid",
    });
    // Sent raw, the hub refuses it (createdBy is not the sender: the author signature must verify).
    await expect(
      raw(bob.link, bob.identity, "ocp.knowledge.stream", carol.agent.id, {
        ...stream([{ ...held, title: "Never rotate" }]),
      }),
    ).rejects.toMatchObject({ code: "authorship_invalid" });
    expect(carol.agent.node(note.id)?.title).toBe("Rotate keys quarterly");
  }, 30_000);

  it("a plain a2a+ocp agent (raw JSON, no ocpAuthorship) streams and edits its own nodes; no one else may", async () => {
    const bob = await hubAgent("bob");
    const plainId = id("plain");
    const plain = new HubClient({
      url: hub.url,
      identity: plainId,
      transport: { reconnectBaseMs: 20 },
    });
    await plain.connect();
    cleanup.push(() => plain.close());
    const own = node({ createdBy: plainId.id, title: "plain v1" });
    await raw(hubLink(plain), plainId, "ocp.knowledge.stream", bob.agent.id, stream([own]));
    await until(() => bob.agent.node(own.id) !== undefined, "the plain node");
    await raw(
      hubLink(plain),
      plainId,
      "ocp.knowledge.stream",
      bob.agent.id,
      stream([{ ...own, title: "plain v2", timestamp: "2026-02-01T00:00:00Z" }]),
    );
    await until(() => bob.agent.node(own.id)?.title === "plain v2", "the plain edit");
    expect(bob.refused).toEqual([]);
    const mallory = await hubAgent("mallory");
    await expect(mallory.agent.streamKnowledge([{ ...own, title: "taken" }])).rejects.toMatchObject(
      {
        code: "not_author",
      },
    );
    await expect(mallory.agent.deleteKnowledge({ nodes: [own.id] })).resolves.toBeUndefined();
  }, 30_000);
});

function trio() {
  const net = new MemoryNetwork();
  return ["alice", "dave", "mallory"].map((name) => {
    const identity = generateIdentity(`a2a://${name}`);
    return started(identity, net.link(identity.id, identity.publicKey));
  }) as [ReturnType<typeof started>, ReturnType<typeof started>, ReturnType<typeof started>];
}

describe("editors granted by the author (ocpEditors)", () => {
  it("a relayed node changed in transit is refused by the receiving agent (no hub in the way)", async () => {
    const [alice, dave, mallory] = trio();
    const doc = node({ createdBy: alice.agent.id, title: "signed" });
    await alice.agent.streamKnowledge([doc]);
    await mallory.agent.syncKnowledge(alice.agent.id);
    const held = mallory.agent.node(doc.id) as KnowledgeNode;
    await raw(mallory.link, mallory.identity, "ocp.knowledge.stream", dave.agent.id, {
      ...stream([{ ...held, title: "changed by the relay" }]),
    });
    await until(() => dave.refused.length === 1, "dave refuses");
    expect(dave.refused[0]).toMatchObject({ reason: "authorship_invalid", from: mallory.agent.id });
    expect(dave.agent.node(doc.id)).toBeUndefined();
    await raw(
      mallory.link,
      mallory.identity,
      "ocp.knowledge.stream",
      dave.agent.id,
      stream([held]),
    );
    await until(() => dave.agent.node(doc.id) !== undefined, "the unchanged relay");
    expect(dave.agent.node(doc.id)).toEqual(alice.agent.node(doc.id));
  });

  it("a listed editor may edit and delete; a non-editor may not; an editor may not change ocpEditors or createdBy", async () => {
    const [alice, dave, mallory] = trio();
    const doc = node({ createdBy: alice.agent.id, title: "v1", ocpEditors: [dave.agent.id] });
    await alice.agent.streamKnowledge([doc]);
    await dave.agent.syncKnowledge(alice.agent.id);
    await mallory.agent.syncKnowledge(alice.agent.id);
    // The editor's edit is signed by the editor and keeps author and editors.
    await dave.agent.streamKnowledge([{ ...doc, title: "v2 by dave" }]);
    expect(dave.agent.node(doc.id)).toMatchObject({
      createdBy: alice.agent.id,
      ocpEditors: [dave.agent.id],
      ocpAuthorship: { signer: dave.agent.id },
    });
    await alice.agent.syncKnowledge(dave.agent.id);
    expect(alice.agent.node(doc.id)?.title).toBe("v2 by dave");
    // Local writes that receivers would refuse throw before anything is sent.
    const tries: Array<[Promise<unknown>, string]> = [
      [mallory.agent.streamKnowledge([{ ...doc, title: "mallory" }]), "not_author"],
      [mallory.agent.deleteKnowledge({ nodes: [doc.id] }), "not_author"],
      [
        dave.agent.streamKnowledge([{ ...doc, ocpEditors: [dave.agent.id, mallory.agent.id] }]),
        "editors_changed",
      ],
      [dave.agent.streamKnowledge([{ ...doc, createdBy: dave.agent.id }]), "author_changed"],
    ];
    for (const [attempt, code] of tries) await expect(attempt).rejects.toMatchObject({ code });
    // The same, sent raw: refused by the author's agent.
    const held = dave.agent.node(doc.id) as KnowledgeNode;
    const sends: Array<[ReturnType<typeof started>, unknown]> = [
      [mallory, { ...held, title: "mallory", ocpAuthorship: undefined, ocpVersion: { x: 9e12 } }],
      [
        dave,
        {
          ...held,
          ocpEditors: [dave.agent.id, mallory.agent.id],
          ocpAuthorship: undefined,
          ocpVersion: { x: 9e12 },
        },
      ],
    ];
    for (const [who, item] of sends)
      await raw(
        who.link,
        who.identity,
        "ocp.knowledge.stream",
        alice.agent.id,
        stream([JSON.parse(JSON.stringify(item))]),
      );
    await until(() => alice.refused.length === 2, "two refusals");
    expect(alice.refused.map((r) => r.reason)).toEqual(["not_author", "editors_changed"]);
    expect(alice.agent.node(doc.id)?.title).toBe("v2 by dave");
    // The editor may delete; the author may revoke the grant.
    await dave.agent.deleteKnowledge({ nodes: [doc.id] });
    await alice.agent.syncKnowledge(dave.agent.id);
    expect(alice.agent.node(doc.id)).toBeUndefined();
  }, 30_000);
});
