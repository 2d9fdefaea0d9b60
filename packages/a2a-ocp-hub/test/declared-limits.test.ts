/**
 * Issue 16: the §7.1 `limits` an agent declares in its signed profile
 * (`capabilities.ocp.limits`) are honoured by a real hub over real sockets:
 * no more concurrent collective queries or knowledge subscriptions than
 * declared, durable messages paced to `maxStreamBandwidth` (all arrive,
 * spread out), transient ones over it dropped and audited, and a malformed
 * declaration refused at registration.
 */
import type { HubClient } from "@ocp/a2a-ocp-client";
import { type AgentIdentity, createAgentProfile, MemoryAuditLog } from "@ocp/a2a-ocp-messaging";
import { afterEach, describe, expect, it } from "vitest";
import { Pacer } from "../src/agent-limits.js";
import type { OCPHub } from "../src/index.js";
import { client, identity, startHub, tempDir, until } from "./support.js";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function hub(options: Parameters<typeof startHub>[1] = {}): Promise<OCPHub> {
  const d = tempDir("ocp-limits-");
  const started = await startHub(d.dir, options);
  cleanups.push(d.cleanup, () => started.close());
  return started;
}

/** A profile declaring `limits` the way §7.1 puts them: `capabilities.ocp.limits`. */
function limitedProfile(id: AgentIdentity, limits: Record<string, unknown>) {
  return createAgentProfile(id, {
    extra: {
      capabilities: {
        protocols: ["a2a", "a2a+ocp"],
        ocp: { version: "1.0.0", features: ["collective_query"], endpoints: {}, limits },
      },
    },
  });
}

async function join(h: OCPHub, name: string, limits?: Record<string, unknown>) {
  const id = identity(name);
  const joined = await client(
    h.url,
    id,
    limits === undefined ? {} : { profile: limitedProfile(id, limits) },
  );
  cleanups.push(() => joined.client.close().catch(() => undefined));
  return { id, ...joined };
}

const query = (to: string, queryId: string) => ({
  type: "ocp.collective.query" as const,
  to,
  payload: { queryId, query: "what do you know?", timeout: 60_000 },
});

describe("§7.1 maxConcurrentQueries", () => {
  it("gives the agent no more open queries than declared; its response frees one", async () => {
    const h = await hub();
    const busy = await join(h, "busy", { maxConcurrentQueries: 1 });
    const other = await join(h, "other");
    const asker = await join(h, "asker");
    const first = await asker.client.send(query(busy.id.id, "q1"));
    expect(first.recipients).toBe(1);
    // Direct, and the only recipient is at its limit: refused, with the reason.
    await expect(asker.client.send(query(busy.id.id, "q2"))).rejects.toMatchObject({
      code: "recipient_limit",
      message: expect.stringContaining("maxConcurrentQueries 1"),
    });
    // A broadcast query leaves it out (and still reaches the others).
    const broadcast = await asker.client.send(query("broadcast", "q3"));
    expect(broadcast).toMatchObject({ recipients: 1, excluded: 1 });
    await until(() => other.received.length === 1, "the other agent's query");
    // The busy agent answers q1: it may take a new one.
    await busy.client.send({
      type: "ocp.collective.response",
      to: asker.id.id,
      correlation_id: first.id,
      payload: { queryId: "q1", findings: [], confidence: 0.5, processingTime: 1 },
    });
    expect((await asker.client.send(query(busy.id.id, "q4"))).recipients).toBe(1);
    await until(() => busy.received.length === 2, "q1 and q4 delivered");
    expect(busy.received.map((m) => (m.message.payload as { queryId: string }).queryId)).toEqual([
      "q1",
      "q4",
    ]);
  });

  it("counts a query open only until its timeout", async () => {
    let offset = 0;
    const h = await hub({ now: () => Date.now() + offset });
    const busy = await join(h, "busy", { maxConcurrentQueries: 1 });
    const asker = await join(h, "asker");
    await asker.client.send({
      ...query(busy.id.id, "q1"),
      payload: { ...query("", "q1").payload, timeout: 1000 },
    });
    await expect(asker.client.send(query(busy.id.id, "q2"))).rejects.toMatchObject({
      code: "recipient_limit",
    });
    offset = 1500;
    // Dated by the sender's clock: within the hub's skew bound of its shifted clock.
    expect((await asker.client.send(query(busy.id.id, "q3"))).recipients).toBe(1);
  });

  it("a declaration of 0 means no queries at all; agents that declare nothing are not limited", async () => {
    const h = await hub();
    const none = await join(h, "none", { maxConcurrentQueries: 0 });
    const free = await join(h, "free");
    const asker = await join(h, "asker");
    await expect(asker.client.send(query(none.id.id, "q1"))).rejects.toMatchObject({
      code: "recipient_limit",
    });
    for (let i = 0; i < 5; i += 1)
      expect((await asker.client.send(query(free.id.id, `f${i}`))).recipients).toBe(1);
  });
});

describe("§7.1 maxSubscriptions", () => {
  it("passes no more open knowledge subscriptions to the agent than declared; an unsubscribe frees one", async () => {
    const h = await hub();
    const source = await join(h, "source", { maxSubscriptions: 2 });
    const subscribe = (subscriptionId: string) => ({
      type: "ocp.knowledge.subscribe" as const,
      to: source.id.id,
      payload: { subscriptionId, deliveryMode: "push" as const },
    });
    const a = await join(h, "a");
    const b = await join(h, "b");
    const c = await join(h, "c");
    expect((await a.client.send(subscribe("s1"))).recipients).toBe(1);
    expect((await b.client.send(subscribe("s1"))).recipients).toBe(1);
    // The same subscription again is no new one.
    expect((await a.client.send(subscribe("s1"))).recipients).toBe(1);
    await expect(c.client.send(subscribe("s1"))).rejects.toMatchObject({
      code: "recipient_limit",
      message: expect.stringContaining("maxSubscriptions 2"),
    });
    await a.client.send({
      type: "ocp.knowledge.unsubscribe",
      to: source.id.id,
      payload: { subscriptionId: "s1" },
    });
    expect((await c.client.send(subscribe("s1"))).recipients).toBe(1);
  });
});

describe("§7.1 maxStreamBandwidth", () => {
  it("paces durable messages to the declared bytes per second: all arrive, spread out", async () => {
    const h = await hub();
    const bandwidth = 4000;
    const reader = await join(h, "reader", { maxStreamBandwidth: bandwidth });
    const arrivals: Array<[number, number]> = [];
    reader.client.on("message", (m) =>
      arrivals.push([Date.now(), JSON.stringify(m.message).length]),
    );
    const writer = await join(h, "writer");
    const text = "x".repeat(900);
    const count = 12;
    const start = Date.now();
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        writer.client.send({ type: "ocp.custom.note", to: reader.id.id, payload: { i, text } }),
      ),
    );
    await until(() => arrivals.length === count, "every paced message", 30_000);
    // Nothing lost, in order.
    expect(reader.received.map((m) => (m.message.payload as { i: number }).i)).toEqual(
      Array.from({ length: count }, (_, i) => i),
    );
    // ≥ 1 KB each: beyond the first second's budget and one message, each
    // further `bandwidth` bytes needs a second (a lower bound: load only slows it).
    const bytes = arrivals.reduce((sum, [, size]) => sum + size, 0);
    const largest = Math.max(...arrivals.map(([, size]) => size));
    const floorMs = ((bytes - bandwidth - largest) / bandwidth) * 1000;
    expect(floorMs).toBeGreaterThan(1000);
    expect(arrivals.at(-1)![0] - start).toBeGreaterThanOrEqual(floorMs - 50);
  }, 40_000);

  it("drops transient messages over the budget and audits them as refused", async () => {
    const audit = new MemoryAuditLog();
    const h = await hub({ audit });
    const reader = await join(h, "reader", { maxStreamBandwidth: 1000 });
    const writer = await join(h, "writer");
    const text = "y".repeat(700);
    await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        writer.client.send({ type: "ocp.custom.note", to: "broadcast", payload: { i, text } }),
      ),
    );
    await until(() => reader.received.length >= 1, "the first broadcast");
    const refused = await audit.query({ event: "refused", agent: reader.id.id });
    // 1000 bytes/s: the first goes (the budget goes below zero), the rest within the same instant do not.
    expect(refused.length).toBeGreaterThanOrEqual(3);
    expect(refused[0]).toMatchObject({
      code: "recipient_limit",
      from: writer.id.id,
      to: [reader.id.id],
      type: "ocp.custom.note",
    });
    expect(refused[0]!.reason).toContain("maxStreamBandwidth of 1000 bytes/s");
    const delivered = await audit.query({ event: "delivered", agent: reader.id.id });
    expect(delivered.length + refused.length).toBe(5);
  });

  it("Pacer: a second's budget, debt allowed for one message, refilled by the clock", () => {
    let now = 0;
    const pacer = new Pacer(1000, () => now);
    expect(pacer.take(600)).toBe(true);
    expect(pacer.take(600)).toBe(true); // −200: went below zero.
    expect(pacer.take(1)).toBe(false);
    expect(pacer.waitMs()).toBe(201);
    now = 201;
    expect(pacer.take(5000)).toBe(true); // One large message goes alone.
    now = 10_000_000;
    expect(pacer.waitMs()).toBe(0);
    expect(pacer.take(999)).toBe(true);
    expect(pacer.take(1)).toBe(true);
    expect(pacer.take(1)).toBe(false); // The budget never exceeds one second's.
  });
});

describe("§7.1 limits at registration", () => {
  it("refuses a profile whose declared limits are malformed, saying which", async () => {
    const h = await hub();
    for (const limits of [
      { maxStreamBandwidth: 0 },
      { maxStreamBandwidth: -5 },
      { maxConcurrentQueries: 1.5 },
      { maxSubscriptions: "many" },
    ]) {
      const id = identity("odd");
      const c = await client(h.url, id, {
        profile: limitedProfile(id, limits),
        reconnect: false,
      }).catch((error: unknown) => error);
      expect(c).toMatchObject({
        code: "registration_refused",
        message: expect.stringContaining("capabilities.ocp.limits."),
      });
      if ("client" in (c as object)) await (c as { client: HubClient }).client.close();
    }
  });
});
