/**
 * The §5 scenario both hub topologies run (one SQLite hub in
 * hub.integration.test.ts, three hubs over NATS in cluster-features.ts): knowledge
 * streaming with a filtered subscription, sync then delta sync, a collective
 * query with a synthesis, and event routing to matching subscriptions only.
 * Awareness and consensus differ between the two and stay in each test.
 */
import type { OCPAgent } from "@ocp/a2a-ocp-agent";
import type { KnowledgeNode } from "@ocp/a2a-ocp-messaging";
import { expect } from "vitest";
import { node, until, within } from "./support.js";

/** What the scenario uses of an agent: the same for the built package and its sources. */
type Agent = Pick<
  OCPAgent,
  | "id"
  | "on"
  | "subscribe"
  | "streamKnowledge"
  | "sync"
  | "syncKnowledge"
  | "collectiveQuery"
  | "subscribeEvents"
  | "publishEvent"
>;

export async function sharedFeatureScenario(alice: Agent, bob: Agent, carol: Agent): Promise<void> {
  // §5.1 knowledge: bob subscribes to alice's backend knowledge and receives only the backend node.
  const received: KnowledgeNode[] = [];
  bob.on("knowledge", (nodes) => received.push(...nodes));
  await bob.subscribe(alice.id, { deliveryMode: "push", filters: { domains: ["backend"] } });
  await alice.streamKnowledge([
    node({
      createdBy: alice.id,
      title: "WebSocket memory leak fix",
      data: { code: "ws.on('close', () => connections.delete(id))" },
      metadata: { domain: "backend" },
    }),
    node({ createdBy: alice.id, title: "Frontend colour tweak", metadata: { domain: "frontend" } }),
  ]);
  await until(() => received.length === 1, "bob receives the backend fix");
  expect(received[0]?.title).toBe("WebSocket memory leak fix");

  // §5.6 sync: carol catches up with alice's graph, then only the delta.
  const sync = await within(carol.sync(alice.id), 20_000, "sync");
  expect(sync.itemsSynced).toBeGreaterThanOrEqual(2);
  expect((await within(carol.syncKnowledge(alice.id), 20_000, "delta sync")).itemsSynced).toBe(0);

  // §5.2 collective query from alice, answered by bob and carol, with a synthesis.
  for (const a of [bob, carol]) {
    await a.streamKnowledge([
      node({ createdBy: a.id, title: "Authentication uses JWT access tokens", tags: ["auth"] }),
    ]);
  }
  const answer = await within(
    alice.collectiveQuery("What's our approach to authentication?", {
      timeout: 10_000,
      minResponses: 2,
    }),
    15_000,
    "collective query",
  );
  expect(answer.synthesis.consensus[0]).toContain("JWT");

  // §5.5 events: routed to bob's matching subscription only.
  const events: string[] = [];
  await bob.subscribeEvents(["code.**"], undefined, (e) => events.push(e.eventType));
  await alice.publishEvent("code.deployed.eu", { service: "api" });
  await alice.publishEvent("bug.found", {});
  await until(() => events.length === 1, "event notification");
  expect(events).toEqual(["code.deployed.eu"]);
}
