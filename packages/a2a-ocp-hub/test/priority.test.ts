import type { HubClient } from "@ocp/a2a-ocp-client";
import { rawAgent } from "@ocp/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { OCPHub } from "../src/index.js";
import { byPriority, priorityRank } from "../src/priority.js";
import { client, identity, startHub, tempDir, until } from "./support.js";

let dir: { dir: string; cleanup: () => void };
let hub: OCPHub;
const clients: HubClient[] = [];

beforeEach(async () => {
  dir = tempDir("ocp-priority-");
  hub = await startHub(dir.dir);
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await hub.close();
  dir.cleanup();
});

type Priority = "low" | "normal" | "high" | "urgent" | undefined;
// Sent in this order while the recipient is offline.
const QUEUED: Array<[label: string, priority: Priority]> = [
  ["low-1", "low"],
  ["normal-2", "normal"],
  ["high-3", "high"],
  ["urgent-4", "urgent"],
  ["high-5", "high"],
  ["low-6", "low"],
  ["none-7", undefined],
  ["urgent-8", "urgent"],
];
const EXPECTED = [
  "urgent-4",
  "urgent-8",
  "high-3",
  "high-5",
  "normal-2",
  "none-7",
  "low-1",
  "low-6",
];

async function queueFor(recipient: string) {
  const alice = await client(hub.url, identity("alice"));
  clients.push(alice.client);
  for (const [label, priority] of QUEUED) {
    await alice.client.send({
      type: "ocp.custom.note",
      to: recipient,
      payload: { label },
      ...(priority === undefined ? {} : { priority }),
    });
  }
  return alice;
}

const labelOf = (text: string) =>
  (JSON.parse(text) as { payload: { label: string } }).payload.label;

describe("§4.1 priority orders what the hub queued for an agent", () => {
  it("an agent that reconnects gets its stored messages highest priority first, in order within a priority", async () => {
    const bobId = identity("bob");
    const first = await client(hub.url, bobId, { reconnect: false });
    await first.client.close();
    await queueFor(bobId.id);
    const bob = await client(hub.url, bobId, { reconnect: false });
    clients.push(bob.client);
    await until(() => bob.received.length === QUEUED.length, "every queued message");
    expect(bob.received.map((d) => (d.message.payload as { label: string }).label)).toEqual(
      EXPECTED,
    );
    // Sequence numbers are the store's (not increasing here); the resume point is the page's end.
    expect(bob.received.map((d) => d.seq)).toEqual([4, 8, 3, 5, 2, 7, 1, 6]);
    expect(bob.client.lastSeq).toBe(8);
    // Live again: the next message is delivered at once, numbered after the page.
    const carol = await client(hub.url, identity("carol"));
    clients.push(carol.client);
    await carol.client.send({ type: "ocp.custom.note", to: bobId.id, payload: { label: "live" } });
    await until(() => bob.received.length === QUEUED.length + 1, "the live message");
    expect(bob.received.at(-1)?.seq).toBe(9);
    // Confirmed up to the end: a later reconnect replays nothing.
    const lastSeq = bob.client.lastSeq;
    await bob.client.close();
    const again = await client(hub.url, bobId, { reconnect: false, lastSeq });
    clients.push(again.client);
    await carol.client.send({ type: "ocp.custom.note", to: bobId.id, payload: { label: "after" } });
    await until(() => again.received.length === 1, "only the new message");
    expect(again.received[0]?.message.payload).toEqual({ label: "after" });
  }, 30_000);

  it("announces a reordered page with ocp.hub.batch {count, lastSeq} before it", async () => {
    const bobId = identity("bob");
    (await rawAgent(hub.url, bobId, 10_000, { priorityOrder: true })).close();
    await queueFor(bobId.id);
    const bob = await rawAgent(hub.url, bobId, 10_000, { priorityOrder: true });
    await until(() => bob.delivered().length === QUEUED.length, "the page");
    expect(bob.controls()[0]).toMatchObject({
      type: "ocp.hub.batch",
      payload: { count: QUEUED.length, lastSeq: QUEUED.length },
    });
    // The batch frame comes first, then the deliveries.
    expect(JSON.parse(bob.frames[0] ?? "{}").type).toBe("ocp.hub.batch");
    expect(bob.delivered().map(labelOf)).toEqual(EXPECTED);
    bob.close();
  }, 30_000);

  it("an agent that did not ask for priority order gets sequence order and no batch frame", async () => {
    const bobId = identity("bob");
    (await rawAgent(hub.url, bobId)).close();
    await queueFor(bobId.id);
    const bob = await rawAgent(hub.url, bobId);
    await until(() => bob.delivered().length === QUEUED.length, "every queued message");
    expect(bob.delivered().map(labelOf)).toEqual(QUEUED.map(([label]) => label));
    expect(bob.controls().filter((c) => c.type === "ocp.hub.batch")).toEqual([]);
    bob.close();
  }, 30_000);
});

describe("priority ranks (unit)", () => {
  const msg = (priority?: unknown, extra = {}) =>
    JSON.stringify({ id: "x", ...(priority === undefined ? {} : { priority }), ...extra });

  it("reads the envelope's priority; absent, unknown, malformed or nested read as normal", () => {
    expect(priorityRank(msg("urgent"))).toBe(3);
    expect(priorityRank(msg("high"))).toBe(2);
    expect(priorityRank(msg("normal"))).toBe(1);
    expect(priorityRank(msg())).toBe(1);
    expect(priorityRank(msg("critical"))).toBe(1);
    expect(priorityRank(msg(7))).toBe(1);
    expect(priorityRank(msg(undefined, { payload: { priority: "urgent" } }))).toBe(1);
    expect(priorityRank('{"priority":"urgent"')).toBe(1);
    expect(priorityRank("null")).toBe(1);
    expect(priorityRank(msg("low"))).toBe(0);
  });

  it("keeps a page already in order as the same array, and sorts stably otherwise", () => {
    const page = (ps: Priority[]) => ps.map((p, i) => ({ seq: i + 1, id: `m${i}`, raw: msg(p) }));
    const inOrder = page(["urgent", "high", undefined, "low"]);
    expect(byPriority(inOrder)).toBe(inOrder);
    const mixed = page(["low", "high", "low", "high", undefined]);
    expect(byPriority(mixed).map((d) => d.seq)).toEqual([2, 4, 5, 1, 3]);
  });
});
