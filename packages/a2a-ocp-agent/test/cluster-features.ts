import type { ConsensusDecision } from "@ocp/a2a-ocp-agent";
import { hubLink, OCPAgent } from "@ocp/a2a-ocp-agent";
import type { DeliveredMessage } from "@ocp/a2a-ocp-client";
import type { KnowledgeNode } from "@ocp/a2a-ocp-messaging";
import type { ClusterContext } from "@ocp/testkit/nats";
import { expect, it } from "vitest";
import { node, until, within } from "./support.js";

/** The agent runtime (knowledge, sync, collective query, consensus, awareness, events) over three hubs. */
export function agentFeatureTests(ctx: ClusterContext): void {
  /** What each agent's hub client delivered (markers prove nothing else is in flight). */
  const inbound = new Map<string, DeliveredMessage[]>();
  async function agent(name: string, hub: number): Promise<OCPAgent> {
    const joined = await ctx.join(name, hub);
    const a = new OCPAgent({ identity: joined.id, link: hubLink(joined.client) }).start();
    inbound.set(a.id, joined.received);
    ctx.onClose(() => a.close());
    return a;
  }

  it("every §5 feature works between OCPAgents attached to three different hubs; consensus is tallied once, decided once", async () => {
    const alice = await agent("agent-alice", 0);
    const bob = await agent("agent-bob", 1);
    const carol = await agent("agent-carol", 2);

    // §5.4 awareness across hubs.
    await carol.beacon({
      status: "working",
      availability: "available",
      currentContext: { task: "OAuth" },
    });
    await until(() => alice.presence.get(carol.id) !== undefined, "carol's beacon at alice");
    await until(() => bob.presence.get(carol.id) !== undefined, "carol's beacon at bob");

    // §5.1 knowledge: bob (hub 1) subscribes to alice (hub 0) and receives only the backend node.
    const received: KnowledgeNode[] = [];
    bob.on("knowledge", (nodes) => received.push(...nodes));
    await bob.subscribe(alice.id, { deliveryMode: "push", filters: { domains: ["backend"] } });
    await alice.streamKnowledge([
      node({
        createdBy: alice.id,
        title: "WebSocket memory leak fix",
        metadata: { domain: "backend" },
      }),
      node({
        createdBy: alice.id,
        title: "Frontend colour tweak",
        metadata: { domain: "frontend" },
      }),
    ]);
    await until(() => received.length === 1, "bob receives the backend fix");
    expect(received[0]?.title).toBe("WebSocket memory leak fix");

    // §5.6 sync: carol (hub 2) catches up with alice's graph, then only the delta.
    const sync = await within(carol.sync(alice.id), 20_000, "sync");
    expect(sync.itemsSynced).toBeGreaterThanOrEqual(2);
    expect((await within(carol.syncKnowledge(alice.id), 20_000, "delta sync")).itemsSynced).toBe(0);

    // §5.2 collective query from hub 0, answered from hubs 1 and 2.
    await bob.streamKnowledge([
      node({ createdBy: bob.id, title: "Authentication uses JWT access tokens", tags: ["auth"] }),
    ]);
    await carol.streamKnowledge([
      node({ createdBy: carol.id, title: "Authentication uses JWT access tokens", tags: ["auth"] }),
    ]);
    const answer = await within(
      alice.collectiveQuery("What's our approach to authentication?", {
        timeout: 10_000,
        minResponses: 2,
      }),
      15_000,
      "collective query",
    );
    expect(answer.synthesis.consensus[0]).toContain("JWT");

    // §5.5 events: NATS routes code.** from hub 0 to bob's subscription on hub 1 only.
    const events: string[] = [];
    await bob.subscribeEvents(["code.**"], undefined, (e) => events.push(e.eventType));
    await alice.publishEvent("code.deployed.eu", { service: "api" });
    await alice.publishEvent("bug.found", {});
    await until(() => events.length === 1, "event notification");
    expect(events).toEqual(["code.deployed.eu"]);

    // §5.3 consensus: alice tallies votes from hubs 1 and 2, once each; everyone learns one verified decision.
    const decisions = new Map<string, ConsensusDecision[]>();
    for (const a of [alice, bob, carol]) {
      decisions.set(a.id, []);
      a.on("consensus", (d) => decisions.get(a.id)!.push(d));
    }
    const proposed = Promise.all([
      within(bob.once("proposal"), 15_000, "proposal at bob"),
      within(carol.once("proposal"), 15_000, "proposal at carol"),
    ]);
    const proposalId = await alice.propose({
      topic: "Cluster the hubs",
      proposal: { engine: "NATS" },
      votingPeriod: 60,
      requiredVotes: 2,
      votingRule: "majority",
    });
    await proposed;
    await bob.vote(proposalId, "approve");
    await carol.vote(proposalId, "approve");
    for (const a of [alice, bob, carol]) {
      await until(() => decisions.get(a.id)!.length >= 1, `the decision at ${a.id}`);
    }
    const marker = await ctx.join("consensus-marker", 0);
    const sent = await marker.client.send({
      type: "ocp.custom.marker",
      to: [alice.id, bob.id, carol.id],
      payload: {},
    });
    for (const a of [alice, bob, carol]) {
      await until(() => inbound.get(a.id)!.some((m) => m.message.id === sent.id), "the marker");
      expect(decisions.get(a.id)).toHaveLength(1);
      expect(decisions.get(a.id)![0]).toMatchObject({
        proposalId,
        status: "achieved",
        outcome: "approved",
        verified: true,
        votes: { approve: 2, reject: 0, abstain: 0 },
      });
    }
  });
}
