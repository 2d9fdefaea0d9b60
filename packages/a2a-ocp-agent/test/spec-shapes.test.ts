import { generateIdentity } from "@ocp/a2a-ocp-messaging";
import { afterEach, describe, expect, it } from "vitest";
import { OCPAgent } from "../src/agent.js";
import { MemoryNetwork } from "../src/link.js";
import { pageChecksum } from "../src/sync.js";
import { plainPeer } from "./spec-peer.js";
import { node, until } from "./support.js";

let agents: OCPAgent[] = [];
afterEach(async () => {
  await Promise.all(agents.map((a) => a.close()));
  agents = [];
});

function setup() {
  const net = new MemoryNetwork();
  const identity = generateIdentity("a2a://ours");
  const agent = new OCPAgent({ identity, link: net.link(identity.id, identity.publicKey) }).start();
  agents.push(agent);
  const errors: unknown[] = [];
  agent.on("error", (e) => errors.push(e));
  return { net, agent, errors, peer: plainPeer(net, "plain") };
}

const later = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

describe("spec-shaped knowledge from a plain a2a+ocp sender", () => {
  it("applies §5.1.6 NodeUpdates, deletions and deletedEdges without our extension fields", async () => {
    const { agent, peer, errors } = setup();
    const a = node({ createdBy: peer.id, title: "first" });
    const b = node({ createdBy: peer.id, title: "second" });
    const edge = { id: "edge-ab", source: a.id, target: b.id, relationship: "relates", weight: 1 };
    const deleted: string[] = [];
    agent.on("deleted", (ids) => deleted.push(...ids));
    await peer.send("ocp.knowledge.stream", agent.id, {
      streamId: "s1",
      nodes: [a, b],
      edges: [edge],
      isIncremental: true,
      sequenceNumber: 1,
    });
    await until(
      () => agent.node(b.id) !== undefined && agent.graph.getEdge(edge.id) !== undefined,
      "stream merged",
    );
    await peer.send("ocp.knowledge.update", agent.id, {
      updates: [
        {
          nodeId: a.id,
          changes: { title: "first, revised", confidence: 0.5 },
          changeType: "modified",
        },
      ],
      deletions: [b.id],
      newEdges: [],
      deletedEdges: [edge.id],
    });
    await until(() => agent.node(a.id)?.title === "first, revised", "update applied");
    expect(agent.node(a.id)?.confidence).toBe(0.5);
    expect(agent.node(b.id)).toBeUndefined();
    expect(agent.graph.getEdge(edge.id)?.ocpDeleted).toBe(true);
    expect(deleted).toEqual([b.id]);
    // A second update of the same node dominates the first.
    await peer.send("ocp.knowledge.update", agent.id, {
      updates: [{ nodeId: a.id, changes: { tags: ["done"] }, changeType: "metadata_updated" }],
      deletions: [],
      newEdges: [],
      deletedEdges: [],
    });
    await until(() => agent.node(a.id)?.tags.includes("done") === true, "second update");
    expect(agent.node(a.id)?.title).toBe("first, revised");
    expect(errors).toEqual([]);
  }, 30_000);

  it("reports NodeUpdates it cannot apply (deleted or unknown node) and merges the rest", async () => {
    const { agent, peer, errors } = setup();
    const a = node({ createdBy: agent.id, title: "a" });
    await agent.streamKnowledge([a]);
    await agent.deleteKnowledge({ nodes: [a.id] });
    const whole = node({ createdBy: peer.id, title: "created by an update" });
    await peer.send("ocp.knowledge.update", agent.id, {
      updates: [
        { nodeId: a.id, changes: { title: "revived?" }, changeType: "modified" },
        { nodeId: "node-nowhere", changes: { title: "partial" }, changeType: "modified" },
        { nodeId: whole.id, changes: whole, changeType: "modified" },
      ],
      deletions: [],
      newEdges: [],
      deletedEdges: [],
    });
    await until(() => errors.length === 1, "error reported");
    expect((errors[0] as { code: string }).code).toBe("update_skipped");
    expect(String((errors[0] as Error).message)).toContain("deleted_node");
    expect(String((errors[0] as Error).message)).toContain("unknown_node");
    expect(agent.node(a.id)).toBeUndefined();
    expect(agent.node(whole.id)?.title).toBe("created by an update");
  }, 30_000);

  it("merges sync pages whose nodes lack ocpVersion, and counts only what it merged", async () => {
    const { agent, peer } = setup();
    const a = node({ createdBy: peer.id, title: "alpha" });
    const b = node({ createdBy: peer.id, title: "beta" });
    const answer = async (nodes: (typeof a)[]) => {
      await until(() => peer.inbox.some((m) => m.type === "ocp.knowledge.sync.request"), "request");
      const request = peer.inbox.splice(0).find((m) => m.type === "ocp.knowledge.sync.request");
      const syncId = (request?.payload as { syncId?: string } | undefined)?.syncId ?? "";
      await peer.send("ocp.knowledge.sync.response", agent.id, {
        syncId,
        nodes,
        edges: [],
        versionVector: {},
        isComplete: true,
        checksum: pageChecksum(nodes, []),
      });
    };
    let sync = agent.syncKnowledge(peer.id);
    await answer([a, b]);
    expect((await sync).itemsSynced).toBe(2);
    expect(agent.node(a.id)?.title).toBe("alpha");
    // The same nodes again, and one edited later: only the edit counts.
    sync = agent.syncKnowledge(peer.id);
    await answer([a, { ...b, title: "beta 2", timestamp: later(b.timestamp, 1000) }]);
    const second = await sync;
    expect(second.itemsSynced).toBe(1);
    expect(agent.node(b.id)?.title).toBe("beta 2");
    // An older version of it is not merged.
    sync = agent.syncKnowledge(peer.id);
    await answer([b]);
    expect((await sync).itemsSynced).toBe(0);
    expect(agent.node(b.id)?.title).toBe("beta 2");
  }, 30_000);
});
