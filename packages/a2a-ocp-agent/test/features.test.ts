import type { KnowledgeNode } from "@ocp/a2a-ocp-messaging";
import { isOcpError } from "@ocp/a2a-ocp-messaging";
import { afterEach, describe, expect, it } from "vitest";
import type { OCPAgent } from "../src/agent.js";
import { PresenceTable } from "../src/awareness.js";
import { putLocalNode } from "../src/graph.js";
import { MemoryGraph } from "../src/memory-graph.js";
import { deltaPages, SyncReceiver } from "../src/sync.js";
import { node, team, until, within } from "./support.js";

let agents: OCPAgent[] = [];
afterEach(async () => {
  await Promise.all(agents.map((a) => a.close()));
  agents = [];
});

describe("agent runtime details", () => {
  it("§8.5: a private node is never streamed, synced or returned as a finding to another agent; one shared with it is", async () => {
    agents = team(["alice", "bob"]);
    const [alice, bob] = agents as [OCPAgent, OCPAgent];
    const got: string[] = [];
    bob.on("knowledge", (n) => got.push(...n.map((x) => x.title)));
    await bob.subscribe(alice.id, { deliveryMode: "push" });
    await bob.beacon({ status: "idle", availability: "available" });
    await until(() => alice.presence.get(bob.id) !== undefined, "subscription processed");
    await alice.streamKnowledge([
      node({ createdBy: alice.id, title: "secret token rotation", visibility: "private" }),
      node({
        createdBy: alice.id,
        title: "shared token rotation",
        visibility: "private",
        sharedWith: [bob.id],
      }),
      node({ createdBy: alice.id, title: "public token rotation", visibility: "public" }),
    ]);
    await until(() => got.length === 2, "visible stream");
    const sync = await bob.syncKnowledge(alice.id);
    // Bob already holds both visible nodes from the stream: the sync merges nothing more.
    expect(sync.itemsSynced).toBe(0);
    const answer = await within(
      bob.collectiveQuery("token rotation", { timeout: 5000, minResponses: 1 }),
    );
    const titles = answer.responses
      .flatMap((r) => r.payload.findings.map((f) => f.node.title))
      .sort();
    expect(titles).toEqual(["public token rotation", "shared token rotation"]);
    expect(got.sort()).toEqual(["public token rotation", "shared token rotation"]);
  });

  it("pull subscriptions deliver in batches at their frequency; edge changes and edge deletions reach subscribers", async () => {
    agents = team(["alice", "bob"]);
    const [alice, bob] = agents as [OCPAgent, OCPAgent];
    const batches: KnowledgeNode[][] = [];
    bob.on("knowledge", (n) => batches.push(n));
    await bob.subscribe(alice.id, { deliveryMode: "pull", frequency: 0.1, batchSize: 2 });
    await bob.beacon({ status: "idle", availability: "available" });
    await until(() => alice.presence.get(bob.id) !== undefined, "subscription processed");
    const [a, b, c] = [1, 2, 3].map(() => node({ createdBy: alice.id }));
    await alice.streamKnowledge([a, b, c] as KnowledgeNode[]);
    await until(() => batches.flat().length === 3, "pulled batches");
    expect(batches.map((x) => x.length)).toEqual([2, 1]);
    const edge = {
      id: "e1",
      source: a?.id ?? "",
      target: b?.id ?? "",
      relationship: "fixes",
      weight: 0.5,
    };
    await alice.streamKnowledge([], [edge]);
    await until(() => bob.graph.getEdge("e1") !== undefined, "edge");
    await alice.deleteKnowledge({ edges: ["e1"] });
    await until(() => bob.graph.getEdge("e1")?.ocpDeleted === true, "edge tombstone");
    expect(bob.graph.liveEdges()).toEqual([]);
  });

  it("a sync page whose content no longer matches its checksum is refused and merges nothing", () => {
    const source = new MemoryGraph("a2a://s");
    putLocalNode(source, node({ createdBy: "a2a://s", title: "original" }));
    const [page] = [...deltaPages(source, { syncId: "x" })];
    if (page === undefined) throw new Error("no page");
    const tampered = { ...page, nodes: page.nodes.map((n) => ({ ...n, title: "tampered" })) };
    const target = new MemoryGraph("a2a://t");
    let code = "";
    try {
      new SyncReceiver(target, "a2a://s", false).accept(tampered);
    } catch (error) {
      code = isOcpError(error) ? error.code : "other";
    }
    expect(code).toBe("sync_checksum_mismatch");
    expect(target.changeSeq()).toBe(0);
  });

  it("a presence entry not refreshed within the stale window reads as away", () => {
    let now = 0;
    const table = new PresenceTable(1000, () => now);
    table.beacon("a2a://x", { status: "working", availability: "busy" });
    table.update("a2a://x", { changes: { status: "reviewing" } });
    expect(table.get("a2a://x")).toMatchObject({ status: "reviewing", availability: "busy" });
    now = 1001;
    expect(table.get("a2a://x")).toMatchObject({ status: "away", availability: "away" });
    expect(table.query({ status: ["away"] }).map((e) => e.agentId)).toEqual(["a2a://x"]);
  });

  it("maxResponses stops collection, and an unsubscribed event type no longer notifies", async () => {
    agents = team(["alice", "bob", "carol", "dave"]);
    const [alice, bob, carol] = agents as [OCPAgent, OCPAgent, OCPAgent];
    const result = await within(
      alice.collectiveQuery("anything", { timeout: 5000, maxResponses: 2 }),
    );
    expect(result.stoppedBy).toBe("maxResponses");
    expect(result.responses).toHaveLength(2);
    const events: string[] = [];
    const sub = await bob.subscribeEvents(["build.**"], undefined, (e) => events.push(e.eventType));
    await carol.publishEvent("build.failed.ci", {});
    await until(() => events.length === 1, "event");
    await bob.unsubscribeEvents(sub);
    await carol.publishEvent("build.failed.ci", {});
    await carol.beacon({ status: "idle", availability: "available" });
    await until(() => bob.presence.get(carol.id) !== undefined, "later beacon");
    expect(events).toEqual(["build.failed.ci"]);
  });
});
