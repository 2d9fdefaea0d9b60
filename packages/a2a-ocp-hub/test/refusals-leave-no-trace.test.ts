/**
 * Issue 40: a refused message changes nothing. A subscribe or unsubscribe the
 * hub refuses (addressed to the hub itself: `recipient_unknown`; of a feature
 * the sender did not negotiate: `feature_not_negotiated`; a durable one whose
 * commit fails: `store_failed`) leaves the subscriptions as they were, in
 * memory and in the store; a refused knowledge subscribe or unsubscribe
 * leaves a recipient's §7.1 counts as they were. Real hub, real SQLite file,
 * real sockets. "Nothing delivered" is shown by a marker sent after the
 * event: the subscriber receives the marker, and no notification before it.
 */
import type { HubClient } from "@ocp/a2a-ocp-client";
import {
  type AgentIdentity,
  createAgentProfile,
  createMessage,
  signObject,
} from "@ocp/a2a-ocp-messaging";
import { type RawAgent, rawAgent } from "@ocp/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type HubStore, type OCPHub, SqliteStore } from "../src/index.js";
import { client, identity, startHub, tempDir, until } from "./support.js";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The real store; while `failing.on`, its commits throw (a full disk). */
function failingStore(path: string): { store: HubStore; failing: { on: boolean } } {
  const real = new SqliteStore({ path });
  const failing = { on: false };
  const store = new Proxy(real, {
    get(target, key, receiver) {
      if (key === "commit") {
        return (batch: Parameters<HubStore["commit"]>[0]) =>
          failing.on ? Promise.reject(new Error("disk I/O error")) : target.commit(batch);
      }
      const value = Reflect.get(target, key, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { store, failing };
}

async function setup() {
  const d = tempDir("ocp-no-trace-");
  const { store, failing } = failingStore(`${d.dir}/hub.sqlite`);
  const hub = await startHub(d.dir, { store });
  cleanups.push(d.cleanup, () => hub.close());
  const join = async (name: string, limits?: Record<string, unknown>) => {
    const id = identity(name);
    const profile =
      limits === undefined
        ? undefined
        : createAgentProfile(id, {
            extra: {
              capabilities: {
                protocols: ["a2a", "a2a+ocp"],
                ocp: { version: "1.0.0", features: [], endpoints: {}, limits },
              },
            },
          });
    const joined = await client(hub.url, id, profile === undefined ? {} : { profile });
    cleanups.push(() => joined.client.close().catch(() => undefined));
    return { id, ...joined };
  };
  return { hub, failing, join };
}

type Agent = { id: AgentIdentity; client: HubClient; received: { message: { type: string } }[] };
/** An agent whose received message types can be read. */
type Watched = { id: AgentIdentity; types: () => string[] };
const watch = (agent: Agent): Watched => ({
  id: agent.id,
  types: () => agent.received.map((m) => m.message.type),
});

/**
 * An agent on a raw socket (so no client refuses on its behalf): sends exact
 * signed messages and answers with the hub's ack or reject.
 */
async function raw(url: string, name: string) {
  const id = identity(name);
  const agent: RawAgent = await rawAgent(url, id);
  cleanups.push(() => agent.close());
  const send = async (type: string, to: string, payload: unknown) => {
    const init = { type, from: id.id, to, payload } as Parameters<typeof createMessage>[0];
    const message = signObject(createMessage(init), id.secretKey);
    const answered = () => agent.controls().find((c) => c.payload["id"] === message.id);
    agent.send(JSON.stringify(message));
    await until(() => answered() !== undefined, `the hub's answer to ${type}`);
    return answered()!;
  };
  const types = () => agent.delivered().map((t) => (JSON.parse(t) as { type: string }).type);
  return { id, send, types };
}

const subscribe = (to: string, subscriptionId = "sub-1") => ({
  type: "ocp.event.subscribe" as const,
  to,
  payload: { subscriptionId, eventTypes: ["code.*"] },
});
const unsubscribe = (to: string, subscriptionId = "sub-1") => ({
  type: "ocp.event.unsubscribe" as const,
  to,
  payload: { subscriptionId },
});

/**
 * `pub` publishes an event that `witness` (subscribed) receives, then sends
 * each of `watched` a marker; resolves with the notifications each watched
 * agent received before its marker.
 */
async function publishAndCount(pub: Agent, witness: Agent, watched: Watched[]): Promise<number[]> {
  const before = witness.received.length;
  await pub.client.send({
    type: "ocp.event.publish",
    to: "broadcast",
    payload: {
      eventId: `e-${before}`,
      eventType: "code.deployed",
      eventData: { service: "api" },
      timestamp: new Date().toISOString(),
      source: pub.id.id,
    },
  });
  await until(() => witness.received.length > before, "the witness's notification");
  const counts: number[] = [];
  for (const agent of watched) {
    const start = agent.types().length;
    await pub.client.send({ type: "ocp.custom.marker", to: agent.id.id, payload: {} });
    await until(() => agent.types().slice(start).includes("ocp.custom.marker"), "the marker");
    counts.push(agent.types().filter((type) => type === "ocp.event.notification").length);
  }
  return counts;
}

const storedOf = async (hub: OCPHub, agent: { id: AgentIdentity }) =>
  (await hub.store.subscriptions()).filter((s) => s.agentId === agent.id.id);

describe("a refused ocp.event.subscribe takes no effect", () => {
  it("addressed to the hub itself: refused recipient_unknown, no notification, nothing stored", async () => {
    const { hub, join } = await setup();
    const [pub, witness, mallory] = [
      await join("pub"),
      await join("witness"),
      await join("mallory"),
    ];
    await witness.client.send(subscribe("broadcast", "w"));
    await expect(mallory.client.send(subscribe(hub.self.id))).rejects.toMatchObject({
      code: "recipient_unknown",
    });
    expect(await publishAndCount(pub, witness, [watch(mallory)])).toEqual([0]);
    expect(await storedOf(hub, mallory)).toEqual([]);
    expect(hub.stats().subscriptions).toBe(1);
  }, 30_000);

  it("from an agent that did not negotiate event_publishing: refused feature_not_negotiated, no notification", async () => {
    const { hub, join } = await setup();
    const [pub, witness] = [await join("pub"), await join("witness")];
    await witness.client.send(subscribe("broadcast", "w"));
    const mallory = await raw(hub.url, "mallory");
    const announce = { features: ["knowledge_streaming"], version: "1.0.0" };
    expect((await mallory.send("capability.announce", hub.self.id, announce)).type).toBe(
      "ocp.hub.ack",
    );
    for (const to of ["broadcast", pub.id.id]) {
      const { type, payload } = subscribe(to);
      expect(await mallory.send(type, to, payload)).toMatchObject({
        type: "ocp.hub.reject",
        payload: { code: "feature_not_negotiated" },
      });
    }
    expect(await publishAndCount(pub, witness, [mallory])).toEqual([0]);
    expect(await storedOf(hub, mallory)).toEqual([]);
  }, 30_000);

  it("addressed to an agent, when its commit fails: refused store_failed, no notification", async () => {
    const { hub, failing, join } = await setup();
    const [pub, witness, bob] = [await join("pub"), await join("witness"), await join("bob")];
    await witness.client.send(subscribe("broadcast", "w"));
    failing.on = true;
    await expect(bob.client.send(subscribe(pub.id.id))).rejects.toMatchObject({
      code: "store_failed",
    });
    failing.on = false;
    expect(await publishAndCount(pub, witness, [watch(bob)])).toEqual([0]);
    expect(await storedOf(hub, bob)).toEqual([]);
  }, 30_000);
});

describe("a refused ocp.event.unsubscribe takes no effect", () => {
  it("addressed to the hub itself, or of a feature not negotiated: the subscription still delivers", async () => {
    const { hub, join } = await setup();
    const [pub, witness] = [await join("pub"), await join("witness")];
    await witness.client.send(subscribe("broadcast", "w"));
    const bob = await raw(hub.url, "bob");
    const send = (message: { type: string; to: string; payload: unknown }) =>
      bob.send(message.type, message.to, message.payload);
    expect((await send(subscribe("broadcast"))).type).toBe("ocp.hub.ack");
    expect(await send(unsubscribe(hub.self.id))).toMatchObject({
      payload: { code: "recipient_unknown" },
    });
    expect(await publishAndCount(pub, witness, [bob])).toEqual([1]);
    const announce = { features: ["knowledge_streaming"], version: "1.0.0" };
    expect((await bob.send("capability.announce", hub.self.id, announce)).type).toBe("ocp.hub.ack");
    expect(await send(unsubscribe("broadcast"))).toMatchObject({
      payload: { code: "feature_not_negotiated" },
    });
    expect(await publishAndCount(pub, witness, [bob])).toEqual([2]);
    expect((await storedOf(hub, bob)).map((s) => s.subscriptionId)).toEqual(["sub-1"]);
  }, 30_000);

  it("addressed to an agent, when its commit fails: the subscription still delivers", async () => {
    const { hub, failing, join } = await setup();
    const [pub, witness, bob] = [await join("pub"), await join("witness"), await join("bob")];
    await witness.client.send(subscribe("broadcast", "w"));
    await bob.client.send(subscribe("broadcast"));
    failing.on = true;
    await expect(bob.client.send(unsubscribe(pub.id.id))).rejects.toMatchObject({
      code: "store_failed",
    });
    failing.on = false;
    expect(await publishAndCount(pub, witness, [watch(bob)])).toEqual([1]);
    expect((await storedOf(hub, bob)).map((s) => s.subscriptionId)).toEqual(["sub-1"]);
  }, 30_000);
});

describe("a refused knowledge subscribe or unsubscribe leaves §7.1 counts as they were", () => {
  const knowledge = (type: "subscribe" | "unsubscribe", to: string) => ({
    type: `ocp.knowledge.${type}` as const,
    to,
    payload:
      type === "subscribe"
        ? { subscriptionId: "k1", deliveryMode: "push" as const }
        : { subscriptionId: "k1" },
  });

  it("a subscribe whose commit fails holds no slot of the source's maxSubscriptions", async () => {
    const { failing, join } = await setup();
    const source = await join("source", { maxSubscriptions: 1 });
    const [a, b] = [await join("a"), await join("b")];
    failing.on = true;
    await expect(a.client.send(knowledge("subscribe", source.id.id))).rejects.toMatchObject({
      code: "store_failed",
    });
    failing.on = false;
    expect((await b.client.send(knowledge("subscribe", source.id.id))).recipients).toBe(1);
  }, 30_000);

  it("an unsubscribe whose commit fails frees no slot", async () => {
    const { failing, join } = await setup();
    const source = await join("source", { maxSubscriptions: 1 });
    const [a, b] = [await join("a"), await join("b")];
    expect((await a.client.send(knowledge("subscribe", source.id.id))).recipients).toBe(1);
    failing.on = true;
    await expect(a.client.send(knowledge("unsubscribe", source.id.id))).rejects.toMatchObject({
      code: "store_failed",
    });
    failing.on = false;
    await expect(b.client.send(knowledge("subscribe", source.id.id))).rejects.toMatchObject({
      code: "recipient_limit",
    });
  }, 30_000);
});
