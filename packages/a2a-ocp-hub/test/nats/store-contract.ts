import { connect, type NatsConnection } from "@nats-io/transport-node";
import { createAgentProfile, generateIdentity } from "@ocp/a2a-ocp-messaging";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import type { ClusterContext } from "@ocp/testkit/nats";
import { afterAll, beforeAll, expect, it } from "vitest";
import { JetStreamStore } from "../../src/nats/jetstream-store.js";
import { Subjects } from "../../src/nats/subjects.js";

/** The HubStore contract of JetStreamStore, on the suite's server, in a workspace of its own. */
export function storeContractTests(ctx: ClusterContext): void {
  let nc: NatsConnection;
  let store: JetStreamStore;
  const now = Date.now();
  const stored = (id: string, recipients: string[], expiresAt = now + 60_000) => ({
    id,
    sender: "a2a://sender",
    raw: JSON.stringify({ id, n: id }),
    expiresAt,
    recipients,
  });

  beforeAll(async () => {
    nc = await connect({ servers: ctx.natsUrl() });
    store = await JetStreamStore.open({ connection: nc, subjects: new Subjects("contract") });
  });
  afterAll(async () => {
    await store?.close();
    await nc?.drain();
  });

  it("gives each recipient its own gapless sequence and reports a recommit of an id as a duplicate", async () => {
    const [a, b] = ["a2a://contract-a", "a2a://contract-b"];
    const first = await store.commit([stored("m1", [a, b]), stored("m2", [a])]);
    expect(first.map((o) => o.seqs)).toEqual([
      [
        [a, 1],
        [b, 1],
      ],
      [[a, 2]],
    ]);
    const again = await store.commit([stored("m1", [a, b]), stored("m3", [b])]);
    expect(again[0]).toMatchObject({ id: "m1", duplicate: true, seqs: [] });
    expect(again[1]).toMatchObject({ duplicate: false, seqs: [[b, 2]] });
    expect((await store.pending(a, 0, 10, Date.now())).map((p) => [p.seq, p.id])).toEqual([
      [1, "m1"],
      [2, "m2"],
    ]);
  });

  it("resumes after a sequence, pages, skips expired deliveries and forgets confirmed ones", async () => {
    const c = "a2a://contract-c";
    await store.commit([
      stored("c1", [c]),
      stored("c2", [c], now - 1),
      stored("c3", [c]),
      stored("c4", [c]),
    ]);
    expect((await store.pending(c, 0, 10, Date.now())).map((p) => p.id)).toEqual([
      "c1",
      "c3",
      "c4",
    ]);
    expect((await store.pending(c, 2, 1, Date.now())).map((p) => p.id)).toEqual(["c3"]);
    await store.confirm(c, 3);
    expect((await store.pending(c, 0, 10, Date.now())).map((p) => p.seq)).toEqual([4]);
    await store.confirm(c, 99);
    const next = await store.commit([stored("c5", [c])]);
    expect(next[0]?.seqs).toEqual([[c, 5]]);
  });

  it("pins an agent's first key and keeps its latest profile and its subscriptions", async () => {
    const id = generateIdentity("a2a://contract-pinned");
    const profile = createAgentProfile(id, {}, nativeEd25519);
    await store.saveAgent(profile);
    expect((await store.agent(id.id))?.publicKey).toBe(profile.publicKey);
    const other = { ...generateIdentity("a2a://contract-other"), id: id.id };
    await expect(
      store.saveAgent(createAgentProfile(other, {}, nativeEd25519)),
    ).rejects.toMatchObject({
      code: "invalid_profile",
    });
    await store.saveSubscription({ agentId: id.id, subscriptionId: "s1", eventTypes: ["code.*"] });
    await store.saveSubscription({
      agentId: id.id,
      subscriptionId: "s2",
      eventTypes: ["bug.**"],
      filters: { a: 1 },
    });
    await store.removeSubscription(id.id, "s1");
    expect(await store.subscriptionsOf(id.id)).toEqual([
      { agentId: id.id, subscriptionId: "s2", eventTypes: ["bug.**"], filters: { a: 1 } },
    ]);
  });
}
