/**
 * Budgets per agent across hubs clustered on NATS (wire doc, "Budgets per
 * agent"): a real `nats-server` and two `ocp-hub --nats` processes. An agent
 * that spends its discovery budget on one hub and reconnects to the other is
 * refused there too; another agent is not.
 */
import { fileURLToPath } from "node:url";
import { identity } from "@ocp/testkit";
import { natsCluster } from "@ocp/testkit/nats";
import { isOcpError } from "@ocp/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentBudgets } from "../src/budget.js";
import { HUB_DISCOVERY_QUERIES_PER_MINUTE } from "../src/limits.js";
import { NATS_BUDGET_SHARE_INTERVAL_MS } from "../src/nats/limits.js";

const cluster = natsCluster(
  fileURLToPath(new URL("../dist/cli.js", import.meta.url)),
  "budgets-cluster",
  2,
);
beforeAll(() => cluster.start(), 120_000);
afterAll(() => cluster.stop(), 60_000);

const refusal = (error: unknown) => (isOcpError(error) ? error.code : String(error));

describe("budgets per agent, cluster-wide", { timeout: 60_000 }, () => {
  it("the budget an agent spent on one hub is spent on the other after it moves; a bystander is unaffected", async () => {
    const greedyId = identity("greedy");
    const first = await cluster.rejoin(greedyId, 0);
    for (let i = 0; i < HUB_DISCOVERY_QUERIES_PER_MINUTE; i++) {
      await first.client.findAgents({ limit: 1 });
    }
    await expect(first.client.findAgents({ limit: 1 })).rejects.toMatchObject({
      code: "rate_limited",
    });
    await first.client.close();
    // Past a few share intervals, hub 1 has counted what hub 0 saw.
    await new Promise((resolve) => setTimeout(resolve, 12 * NATS_BUDGET_SHARE_INTERVAL_MS));
    const moved = await cluster.rejoin(greedyId, 1);
    const outcome = await moved.client.findAgents({ limit: 1 }).then(
      () => "answered",
      (error: unknown) => refusal(error),
    );
    expect(outcome).toBe("rate_limited");
    const bystander = await cluster.join("bystander", 1);
    await expect(bystander.client.findAgents({ limit: 1 })).resolves.toMatchObject({
      truncated: expect.any(Boolean),
    });
  });
});

describe("AgentBudgets.drain / credit (what a hub shares)", () => {
  it("drain returns what was taken here since the last drain, once; credit counts another hub's spends, never past frames into a close", () => {
    const here = new AgentBudgets();
    const there = new AgentBudgets();
    for (let i = 0; i < 5; i++) here.take("a2a://a", "lookup", 1_000);
    here.take("a2a://b", "discovery", 1_000);
    const spends = here.drain();
    expect(spends).toEqual([
      { agentId: "a2a://a", spent: { lookup: 5 } },
      { agentId: "a2a://b", spent: { discovery: 1 } },
    ]);
    expect(here.drain()).toEqual([]);
    there.credit(
      { agentId: "a2a://b", spent: { discovery: HUB_DISCOVERY_QUERIES_PER_MINUTE } },
      2_000,
    );
    expect(there.take("a2a://b", "discovery", 2_001)).toMatchObject({
      limit: "HUB_DISCOVERY_QUERIES_PER_MINUTE",
      close: false,
    });
    // Malformed counts (negative, fractional, not numbers) are ignored.
    there.credit({ agentId: "a2a://c", spent: { lookup: -5, discovery: 1.5 } }, 2_000);
    expect(there.take("a2a://c", "discovery", 2_001)).toBeUndefined();
    // What was credited is not shared again: only local takes are drained.
    expect(there.drain()).toEqual([
      { agentId: "a2a://b", spent: { discovery: 1 } },
      { agentId: "a2a://c", spent: { discovery: 1 } },
    ]);
  });
});
