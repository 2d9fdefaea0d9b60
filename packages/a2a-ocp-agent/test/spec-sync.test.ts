import type { PlainMessage } from "@ocp/a2a-ocp-messaging";
import { canonicalize, generateIdentity } from "@ocp/a2a-ocp-messaging";
import { afterEach, describe, expect, it } from "vitest";
import { OCPAgent } from "../src/agent.js";
import type { EdgeConflict } from "../src/agent-knowledge.js";
import { MemoryNetwork } from "../src/link.js";
import { plainPeer } from "./spec-peer.js";
import { node, team, until } from "./support.js";

let agents: OCPAgent[] = [];
afterEach(async () => {
  await Promise.all(agents.map((a) => a.close()));
  agents = [];
});

function withPeer() {
  const net = new MemoryNetwork();
  const identity = generateIdentity("a2a://ours");
  const agent = new OCPAgent({ identity, link: net.link(identity.id, identity.publicKey) }).start();
  agents.push(agent);
  return { agent, peer: plainPeer(net, "plain") };
}

const of = (inbox: PlainMessage[], type: string) => inbox.find((m) => m.type === type);

describe("§5.6 sync as the specification shapes it", () => {
  it("ocp.sync.request honours lastSyncedAt and priority, and the completion counts real conflicts", async () => {
    const { agent, peer } = withPeer();
    const old = node({ createdBy: agent.id, title: "old", timestamp: "2025-01-01T00:00:00Z" });
    const fresh = node({ createdBy: agent.id, title: "fresh", timestamp: "2026-06-01T00:00:00Z" });
    const disputed = node({
      createdBy: agent.id,
      title: "ours",
      timestamp: "2026-06-02T00:00:00Z",
      ocpEditors: [peer.id],
    });
    await agent.streamKnowledge([old, fresh, disputed]);
    // The peer's concurrent version of `disputed`: a conflict our agent resolves and reports.
    const conflicts: string[] = [];
    agent.on("conflict", (c) => conflicts.push(c.nodeId));
    await peer.send("ocp.knowledge.stream", agent.id, {
      streamId: "s",
      nodes: [{ ...disputed, title: "theirs" }],
      isIncremental: true,
      sequenceNumber: 1,
    });
    await until(() => conflicts.length === 1, "conflict detected");
    await peer.send("ocp.sync.request", agent.id, {
      syncId: "sync-1",
      scope: ["knowledge"],
      lastSyncedAt: "2026-01-01T00:00:00Z",
      priority: "high",
    });
    await until(() => of(peer.inbox, "ocp.sync.offer") !== undefined, "offer");
    expect(of(peer.inbox, "ocp.sync.offer")?.priority).toBe("high");
    await peer.send("ocp.sync.accept", agent.id, { syncId: "sync-1", accepted: true });
    await until(() => of(peer.inbox, "ocp.sync.complete") !== undefined, "complete");
    const pages = peer.inbox.filter((m) => m.type === "ocp.knowledge.sync.response");
    const titles = pages.flatMap((m) => (m.payload as { nodes: { title: string }[] }).nodes);
    expect(titles.map((n) => n.title).sort()).toEqual(
      ["fresh", agent.node(disputed.id)?.title ?? ""].sort(),
    );
    expect(pages.every((m) => m.priority === "high")).toBe(true);
    const complete = of(peer.inbox, "ocp.sync.complete");
    expect(complete?.payload).toMatchObject({ itemsSynced: 2, conflicts: 1 });
  }, 30_000);

  it("an incoming ocp.sync.conflict is merged: both sides converge without a second sync", async () => {
    agents = team(["alice", "bob"]);
    const [alice, bob] = agents as [OCPAgent, OCPAgent];
    const shared = node({ createdBy: alice.id, title: "v1", ocpEditors: [bob.id] });
    await alice.streamKnowledge([shared]);
    await bob.syncKnowledge(alice.id);
    await alice.streamKnowledge([{ ...shared, title: "alice's v2" }]);
    await bob.streamKnowledge([{ ...shared, title: "bob's v2" }]);
    const report = await bob.sync(alice.id, ["knowledge"]);
    expect(report.conflicts).toBe(1);
    await until(
      () => canonicalize(alice.node(shared.id)) === canonicalize(bob.node(shared.id)),
      "alice merged bob's version from the sync conflict",
    );
  }, 30_000);

  it("edge conflicts are reported locally and on the wire, and converge", async () => {
    agents = team(["alice", "bob"]);
    const [alice, bob] = agents as [OCPAgent, OCPAgent];
    const a = node({ createdBy: alice.id, title: "a" });
    const b = node({ createdBy: alice.id, title: "b" });
    const edge = {
      id: "edge-1",
      source: a.id,
      target: b.id,
      relationship: "uses",
      weight: 0.5,
      ocpEditors: [bob.id],
    };
    await alice.streamKnowledge([a, b], [edge]);
    await bob.syncKnowledge(alice.id);
    expect(bob.graph.getEdge(edge.id)?.weight).toBe(0.5);
    await alice.streamKnowledge([], [{ ...edge, weight: 0.9 }]);
    await bob.streamKnowledge([], [{ ...edge, relationship: "replaces" }]);
    const seen: Array<[string, EdgeConflict, string]> = [];
    alice.on("edgeConflict", (c, by) => seen.push(["alice", c, by]));
    bob.on("edgeConflict", (c, by) => seen.push(["bob", c, by]));
    const report = await bob.syncKnowledge(alice.id);
    expect(report.conflicts).toBe(1);
    await until(() => seen.some(([at]) => at === "alice"), "alice told of the edge conflict");
    const [atBob] = seen.filter(([at]) => at === "bob");
    expect(atBob?.[2]).toBe(bob.id);
    expect(atBob?.[1].edgeId).toBe(edge.id);
    expect(atBob?.[1].localVersion.relationship).toBe("replaces");
    expect(atBob?.[1].remoteVersion.weight).toBe(0.9);
    expect(seen.find(([at]) => at === "alice")?.[2]).toBe(bob.id);
    await until(
      () => canonicalize(alice.graph.getEdge(edge.id)) === canonicalize(bob.graph.getEdge(edge.id)),
      "edge converged",
    );
  }, 30_000);
});
