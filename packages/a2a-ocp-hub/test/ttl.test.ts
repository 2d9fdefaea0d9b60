/**
 * Message lifetimes at the hub: the ack says when a message expires, a
 * durable message with a long `ttl` outlives the default TTL in the store
 * (the hub's clock is moved on, nothing waits), and a store that would drop
 * deliveries before their expiry is refused.
 */
import type { HubClient } from "@ocp/a2a-ocp-client";
import type { PlainMessage } from "@ocp/a2a-ocp-messaging";
import {
  DEFAULT_TTL_SECONDS,
  MAX_CLOCK_SKEW_MS,
  MAX_TTL_SECONDS,
} from "@ocp/a2a-ocp-messaging/internal";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type HubStore, OCPHub, SqliteStore } from "../src/index.js";
import { NATS_INBOX_MAX_AGE_MS } from "../src/nats/limits.js";
import { longestLifetimeMs } from "../src/store.js";
import { client, identity, startHub, tempDir, until } from "./support.js";

let dir: { dir: string; cleanup: () => void };
let hub: OCPHub;
/** The hub's clock runs `offset` ms ahead of the real one. */
let offset = 0;
const clients: HubClient[] = [];

beforeEach(async () => {
  dir = tempDir("ocp-hub-ttl-");
  offset = 0;
  hub = await startHub(dir.dir, { now: () => Date.now() + offset });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await hub.close();
  dir.cleanup();
});

async function join(name: string, id = identity(name)) {
  const joined = await client(hub.url, id);
  clients.push(joined.client);
  await until(() => hub.connectedAgents().includes(id.id), `${name} registered`);
  return { id, ...joined };
}

const expiry = (timestamp: string, ttlSeconds: number) =>
  new Date(Date.parse(timestamp) + ttlSeconds * 1000 + MAX_CLOCK_SKEW_MS).toISOString();

describe("message lifetimes at the hub", () => {
  it("acks say when the message expires: timestamp + ttl (or the default) + skew, durable or not", async () => {
    const alice = await join("alice");
    const bob = await join("bob");
    const timestamp = new Date().toISOString();
    const durable = await alice.client.send({
      type: "ocp.custom.note",
      to: bob.id.id,
      timestamp,
      ttl: MAX_TTL_SECONDS,
      payload: {},
    });
    expect(durable).toMatchObject({ durable: true, recipients: 1 });
    expect(durable.expiresAt).toBe(expiry(timestamp, MAX_TTL_SECONDS));
    const beacon = await alice.client.send({
      type: "ocp.awareness.beacon",
      to: "broadcast",
      timestamp,
      payload: { status: "working", availability: "available" },
    });
    expect(beacon).toMatchObject({ durable: false, recipients: 1 });
    expect(beacon.expiresAt).toBe(expiry(timestamp, DEFAULT_TTL_SECONDS));
  });

  it("keeps a durable message with a long ttl past the default TTL, until its own expiry", async () => {
    const alice = await join("alice");
    const bobId = identity("bob");
    const bob = await join("bob", bobId);
    await bob.client.close();
    const send = (n: number, ttl?: number) =>
      alice.client.send({
        type: "ocp.custom.note",
        to: bobId.id,
        payload: { n },
        ...(ttl === undefined ? {} : { ttl }),
      });
    await send(1);
    const long = await send(2, MAX_TTL_SECONDS);
    // Stored until the expiry its ack announced, not a millisecond longer.
    const expiresAt = Date.parse(long.expiresAt as string);
    const stored = async (at: number) =>
      (await hub.store.pending(bobId.id, 0, 10, at)).map((p) => p.seq);
    expect(await stored(expiresAt - 1)).toEqual([2]);
    expect(await stored(expiresAt)).toEqual([]);
    // 335 s later (the hub's clock), after a sweep: only the message with a long ttl is left.
    offset = 335_000;
    await hub.store.sweep(Date.now() + offset);
    const back = await join("bob", bobId);
    await until(() => back.received.length === 1, "the long-lived message");
    const payloads = back.received.map((m) => (m.message as PlainMessage).payload);
    expect(payloads).toEqual([{ n: 2 }]);
    expect(back.received[0]?.seq).toBe(2);
  });
});

describe("store retention", () => {
  const withRetention = (store: HubStore, retentionMs: number): HubStore =>
    Object.create(store, { retentionMs: { value: retentionMs } }) as HubStore;

  it("refuses a store that would drop a delivery before the longest a message may live", async () => {
    const inner = new SqliteStore({ path: ":memory:" });
    try {
      expect(longestLifetimeMs(MAX_CLOCK_SKEW_MS)).toBe(NATS_INBOX_MAX_AGE_MS);
      // The JetStream default fits the default skew exactly, not a larger one.
      expect(
        () => new OCPHub({ store: withRetention(inner, NATS_INBOX_MAX_AGE_MS) }),
      ).not.toThrow();
      expect(
        () =>
          new OCPHub({
            store: withRetention(inner, NATS_INBOX_MAX_AGE_MS),
            maxClockSkewMs: MAX_CLOCK_SKEW_MS + 1,
          }),
      ).toThrow(expect.objectContaining({ code: "invalid_option" }));
      expect(() => new OCPHub({ store: withRetention(inner, 3_600_000) })).toThrow(
        /less than a message may live/,
      );
    } finally {
      await inner.close();
    }
  });
});
