import type { KnowledgeConflictPayload, KnowledgeNode } from "@ocp/a2a-ocp-messaging";
import { afterEach, describe, expect, it } from "vitest";
import type { OCPAgent } from "../src/agent.js";
import { node, team, until, within } from "./support.js";

let agents: OCPAgent[] = [];
afterEach(async () => {
  await Promise.all(agents.map((a) => a.close()));
  agents = [];
});

describe("OCPAgent over an in-memory network", () => {
  it("streams knowledge to exactly the subscribers whose filters match, including what existed before subscribing", async () => {
    agents = team(["alice", "bob", "carol"]);
    const [alice, bob, carol] = agents as [OCPAgent, OCPAgent, OCPAgent];
    await alice.streamKnowledge([
      node({
        createdBy: alice.id,
        title: "old backend fix",
        tags: ["critical"],
        metadata: { domain: "backend" },
      }),
    ]);
    const bobGot: KnowledgeNode[] = [];
    const carolGot: KnowledgeNode[] = [];
    bob.on("knowledge", (n) => bobGot.push(...n));
    carol.on("knowledge", (n) => carolGot.push(...n));
    await bob.subscribe(alice.id, {
      deliveryMode: "push",
      filters: { domains: ["backend"], tags: ["critical"], minConfidence: 0.8 },
    });
    await carol.subscribe(alice.id, {
      deliveryMode: "push",
      filters: { nodeTypes: ["design.decision"] },
    });
    await until(() => bobGot.length === 1, "initial stream");
    await alice.streamKnowledge([
      node({
        createdBy: alice.id,
        title: "ws leak fix",
        tags: ["critical"],
        metadata: { domain: "backend" },
      }),
      node({
        createdBy: alice.id,
        title: "low confidence",
        tags: ["critical"],
        confidence: 0.5,
        metadata: { domain: "backend" },
      }),
      node({ createdBy: alice.id, title: "use OAuth", type: "design.decision" }),
    ]);
    await until(() => bobGot.length === 2 && carolGot.length === 1, "filtered streams");
    expect(bobGot.map((n) => n.title)).toEqual(["old backend fix", "ws leak fix"]);
    expect(carolGot.map((n) => n.title)).toEqual(["use OAuth"]);
    expect(bob.node(bobGot[1]?.id ?? "")?.title).toBe("ws leak fix");
  });

  it("a paused stream buffers until resumed, and a cancelled one stops", async () => {
    agents = team(["alice", "bob"]);
    const [alice, bob] = agents as [OCPAgent, OCPAgent];
    const got: string[] = [];
    bob.on("knowledge", (n) => got.push(...n.map((x) => x.title)));
    const streamId = await bob.subscribe(alice.id, { deliveryMode: "push", batchSize: 2 });
    await bob.controlStream(alice.id, streamId, "pause");
    // Alice handles Bob's messages in order: once his beacon is in, so is the pause.
    await bob.beacon({ status: "working", availability: "available" });
    await until(() => alice.presence.get(bob.id) !== undefined, "pause processed");
    await alice.streamKnowledge([node({ createdBy: alice.id, title: "one" })]);
    await alice.streamKnowledge([node({ createdBy: alice.id, title: "two" })]);
    await alice.beacon({ status: "working", availability: "available" });
    await until(() => bob.presence.get(alice.id) !== undefined, "alice's beacon");
    expect(got).toEqual([]);
    await bob.controlStream(alice.id, streamId, "resume");
    await until(() => got.length === 2, "resumed delivery");
    await bob.controlStream(alice.id, streamId, "cancel");
    await bob.beacon({ status: "idle", availability: "available" });
    await until(() => alice.presence.get(bob.id)?.status === "idle", "cancel processed");
    await alice.streamKnowledge([node({ createdBy: alice.id, title: "three" })]);
    // Messages arrive in order: once Alice's later beacon is in, "three" would have been too.
    await alice.beacon({ status: "idle", availability: "available" });
    await until(() => bob.presence.get(alice.id)?.status === "idle", "alice's second beacon");
    expect(got).toEqual(["one", "two"]);
  });

  it("deletions and concurrent edits converge, and a conflict is reported once with both versions", async () => {
    agents = team(["alice", "bob"]);
    const [alice, bob] = agents as [OCPAgent, OCPAgent];
    const conflicts: Array<[KnowledgeConflictPayload, string, string]> = [];
    alice.on("conflict", (c, by) => conflicts.push([c, by, alice.id]));
    bob.on("conflict", (c, by) => conflicts.push([c, by, bob.id]));
    // Alice lets Bob edit her node (ocpEditors), so their concurrent edits are a conflict.
    const shared = node({ createdBy: alice.id, title: "auth: sessions", ocpEditors: [bob.id] });
    await alice.streamKnowledge([shared]);
    await bob.syncKnowledge(alice.id);
    await alice.streamKnowledge([{ ...shared, title: "auth: JWT" }]);
    await bob.streamKnowledge([{ ...shared, title: "auth: OAuth" }]);
    await bob.syncKnowledge(alice.id);
    await alice.syncKnowledge(bob.id);
    expect(alice.node(shared.id)).toEqual(bob.node(shared.id));
    await until(() => conflicts.length >= 2, "conflict reports");
    const detected = conflicts.filter(([, by, at]) => by === bob.id && at === bob.id);
    // Alice hears of it from Bob (one ocp.knowledge.conflict), and does not detect it again.
    expect(conflicts.filter(([, , at]) => at === alice.id).map(([, by]) => by)).toEqual([bob.id]);
    expect(detected).toHaveLength(1);
    expect(detected[0]?.[0].localVersion.title).toBe("auth: OAuth");
    expect(detected[0]?.[0].remoteVersion.title).toBe("auth: JWT");
    expect(detected[0]?.[0].conflictType).toBe("content");
    await alice.deleteKnowledge({ nodes: [shared.id] });
    await bob.syncKnowledge(alice.id);
    expect(bob.node(shared.id)).toBeUndefined();
  });

  it("the generic sync exchange transfers knowledge and awareness, and a second sync sends only the delta", async () => {
    agents = team(["alice", "bob", "carol"]);
    const [alice, bob, carol] = agents as [OCPAgent, OCPAgent, OCPAgent];
    await carol.beacon({
      status: "blocked",
      availability: "available",
      currentContext: { task: "OAuth", blockedOn: "credentials" },
    });
    await until(() => alice.presence.get(carol.id) !== undefined, "beacon");
    await alice.streamKnowledge(Array.from({ length: 30 }, () => node({ createdBy: alice.id })));
    const first = await bob.sync(alice.id);
    expect(first.itemsSynced).toBe(30);
    expect(first.awarenessEntries).toBe(1);
    expect(bob.presence.get(carol.id)?.status).toBe("blocked");
    await alice.streamKnowledge([node({ createdBy: alice.id, title: "one more" })]);
    const second = await bob.sync(alice.id, ["knowledge"]);
    expect(second.itemsSynced).toBe(1);
    expect(bob.graph.liveNodes()).toHaveLength(31);
  });

  it("a collective query gathers ranked findings and a synthesis with consensus across agents", async () => {
    agents = team(["alice", "bob", "carol", "dave"]);
    const [alice, bob, carol, dave] = agents as [OCPAgent, OCPAgent, OCPAgent, OCPAgent];
    const jwt = {
      title: "Authentication uses JWT access tokens",
      description: "Short-lived JWT with refresh tokens",
      tags: ["auth"],
    };
    await bob.streamKnowledge([
      node({ createdBy: bob.id, ...jwt }),
      node({ createdBy: bob.id, title: "Database is PostgreSQL" }),
    ]);
    await carol.streamKnowledge([node({ createdBy: carol.id, ...jwt })]);
    await dave.streamKnowledge([
      node({
        createdBy: dave.id,
        title: "Login page uses OAuth with GitHub",
        tags: ["auth", "login"],
      }),
    ]);
    const result = await within(
      alice.collectiveQuery("What's our approach to authentication?", {
        timeout: 5000,
        minResponses: 3,
      }),
    );
    expect(result.stoppedBy).toBe("minResponses");
    expect(result.synthesis.sources).toEqual([bob.id, carol.id, dave.id].sort());
    expect(result.synthesis.consensus).toHaveLength(1);
    expect(result.synthesis.consensus[0]).toContain("JWT");
    expect(result.synthesis.answer.split("\n")[0]).toContain("JWT");
    const bobResponse = result.responses.find((r) => r.from === bob.id);
    expect(bobResponse?.payload.findings[0]?.node.title).toBe(jwt.title);
  });

  it("a proposal is decided by signed votes, announced with them, and every agent verifies the tally", async () => {
    agents = team(["alice", "bob", "carol"]);
    const [alice, bob, carol] = agents as [OCPAgent, OCPAgent, OCPAgent];
    const rejected: string[] = [];
    alice.on("voteRejected", (_v, r) => rejected.push(r.code));
    const seen = Promise.all([bob, carol].map((a) => within(a.once("proposal"))));
    const decided = Promise.all([bob, carol].map((a) => within(a.once("consensus"))));
    const proposalId = await alice.propose({
      topic: "Switch to PostgreSQL",
      proposal: { decision: "migrate" },
      votingPeriod: 60,
      requiredVotes: 3,
      votingRule: "majority",
    });
    await seen;
    await alice.vote(proposalId, "approve");
    await bob.vote(proposalId, "approve");
    await bob.vote(proposalId, "reject");
    await carol.vote(proposalId, "reject");
    const decisions = await decided;
    for (const [d] of decisions) {
      expect(d).toMatchObject({
        proposalId,
        status: "achieved",
        outcome: "approved",
        verified: true,
        votes: { approve: 2, reject: 1, abstain: 0 },
      });
    }
    expect(rejected).toEqual(["duplicate_vote"]);
  });

  it("awareness: beacons fill the presence table, queries filter it, and events reach matching subscriptions", async () => {
    agents = team(["alice", "bob"]);
    const [alice, bob] = agents as [OCPAgent, OCPAgent];
    await bob.beacon({
      status: "working",
      availability: "busy",
      currentContext: { task: "Implement OAuth" },
    });
    await until(() => alice.presence.get(bob.id) !== undefined, "beacon");
    expect((await alice.queryAwareness({ task: "oauth" })).map((a) => a.agentId)).toEqual([bob.id]);
    expect(await alice.queryAwareness({ status: ["blocked"] })).toEqual([]);
    const remote = await alice.queryAwareness({ availability: ["busy"] }, bob.id);
    expect(remote.map((a) => a.agentId)).toEqual([bob.id]);
    const events: string[] = [];
    await alice.subscribeEvents(["code.*"], { environment: "production" }, (e) =>
      events.push(e.eventType),
    );
    await bob.publishEvent("code.deployed", { environment: "staging" });
    await bob.publishEvent("bug.found", { environment: "production" });
    await bob.publishEvent("code.deployed", { environment: "production" });
    await until(() => events.length === 1, "event");
    expect(events).toEqual(["code.deployed"]);
  });
});
