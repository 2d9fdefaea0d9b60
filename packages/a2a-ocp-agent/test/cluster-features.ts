import type { ConsensusDecision } from "@ocp/a2a-ocp-agent";
import { hubLink, OCPAgent } from "@ocp/a2a-ocp-agent";
import type { DeliveredMessage } from "@ocp/a2a-ocp-client";
import type { ClusterContext } from "@ocp/testkit/nats";
import { expect, it } from "vitest";
import { sharedFeatureScenario } from "./scenario.js";
import { until, within } from "./support.js";

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

    // §5.1 knowledge, §5.6 sync, §5.2 collective query and §5.5 events, each crossing hubs.
    await sharedFeatureScenario(alice, bob, carol);

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
