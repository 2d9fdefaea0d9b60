/**
 * The ack deadline of `HubClient.send`, against a real WebSocket peer that
 * registers the agent and then acknowledges only what the test tells it to
 * (`@ocp/transport-ws`'s server, no hub): a send without an ack fails with
 * `hub_timeout`, a late ack changes nothing, an ack in time resolves, a
 * closed connection fails what still waits, and the same message sent twice
 * while its ack is awaited goes out once and settles both sends.
 */
import { createMessage, generateIdentity } from "@ocp/a2a-ocp-messaging";
import { encodeHubControl, HUB_TYPES } from "@ocp/a2a-ocp-messaging/internal";
import { type Connection, createWsServer, type WsServer } from "@ocp/transport-ws";
import { OcpError } from "@ocp/types";
import { afterEach, describe, expect, it } from "vitest";
import { HubClient } from "../src/index.js";

const identity = generateIdentity("a2a://ack-timeout-agent");
let server: WsServer | undefined;
let client: HubClient | undefined;

afterEach(async () => {
  await client?.close().catch(() => undefined);
  await server?.close();
  client = undefined;
  server = undefined;
});

/** A peer that registers `identity` and hands every message it receives to `onMessage`. */
async function peer(onMessage: (connection: Connection, raw: string) => void): Promise<string> {
  server = await createWsServer({
    host: "127.0.0.1",
    port: 0,
    authenticate: () => ({ agentId: identity.id }),
  });
  server.on("connection", (connection) => {
    connection.on("message", (raw) => onMessage(connection, raw));
  });
  return server.url;
}

function ack(connection: Connection, raw: string): void {
  const id = (JSON.parse(raw) as { id: string }).id;
  const expiresAt = new Date(Date.now() + 60_000).toISOString();
  connection.send(
    encodeHubControl(HUB_TYPES.ACK, { id, durable: false, recipients: 1, excluded: 0, expiresAt }),
  );
}

const note = (i: number) =>
  createMessage({
    type: "ocp.custom.note",
    from: identity.id,
    to: "a2a://someone",
    payload: { i },
  });

describe("HubClient ack deadline", () => {
  it("fails a send the hub never acknowledges with hub_timeout, at its deadline", async () => {
    const received: string[] = [];
    const url = await peer((_connection, raw) => received.push(raw));
    client = await HubClient.connect({ url, identity, ackTimeoutMs: 200, reconnect: false });
    const started = Date.now();
    const error = await client.send(note(1)).then(
      () => undefined,
      (e: unknown) => e,
    );
    const waited = Date.now() - started;
    expect(error).toBeInstanceOf(OcpError);
    expect((error as OcpError).code).toBe("hub_timeout");
    expect(waited).toBeGreaterThanOrEqual(195);
    expect(client.pendingSends).toBe(0);
    expect(received).toHaveLength(1); // It was sent; only the ack is missing.
  });

  it("resolves the sends acknowledged in time and times out only the others", async () => {
    let count = 0;
    const url = await peer((connection, raw) => {
      count += 1;
      if (count % 2 === 1) ack(connection, raw); // The 1st, 3rd, … are acknowledged.
    });
    client = await HubClient.connect({ url, identity, ackTimeoutMs: 300, reconnect: false });
    const outcomes = await Promise.allSettled([1, 2, 3, 4].map((i) => client!.send(note(i))));
    expect(outcomes.map((o) => o.status)).toEqual([
      "fulfilled",
      "rejected",
      "fulfilled",
      "rejected",
    ]);
    for (const o of outcomes) {
      if (o.status === "rejected") expect((o.reason as OcpError).code).toBe("hub_timeout");
    }
    expect(client.pendingSends).toBe(0);
  });

  it("ignores an ack that arrives after the deadline", async () => {
    let late: (() => void) | undefined;
    const url = await peer((connection, raw) => {
      late = () => ack(connection, raw);
    });
    client = await HubClient.connect({ url, identity, ackTimeoutMs: 100, reconnect: false });
    const sent = client.send(note(1));
    await expect(sent).rejects.toMatchObject({ code: "hub_timeout" });
    late?.();
    // The late ack finds nothing waiting; a later send still gets its own outcome.
    const next = client.send(note(2));
    await expect(next).rejects.toMatchObject({ code: "hub_timeout" });
    expect(client.pendingSends).toBe(0);
  });

  it("fails what still waits when the connection ends, without waiting for the deadline", async () => {
    const url = await peer(() => undefined);
    client = await HubClient.connect({ url, identity, ackTimeoutMs: 60_000, reconnect: false });
    const sent = client.send(note(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = server!.close();
    await expect(sent).rejects.toMatchObject({ code: "not_connected" });
    await closed;
    server = undefined;
    expect(client.pendingSends).toBe(0);
  });

  it("sends a message sent again while its ack is awaited once, and settles both sends with its outcome", async () => {
    const received: string[] = [];
    const url = await peer((connection, raw) => {
      received.push(raw);
      setTimeout(() => ack(connection, raw), 50);
    });
    client = await HubClient.connect({ url, identity, ackTimeoutMs: 5_000, reconnect: false });
    const message = note(7);
    const [first, second] = await Promise.all([client.send(message), client.send(message)]);
    expect(first.id).toBe(message.id);
    expect(second).toEqual(first);
    expect(received).toHaveLength(1);
    expect(client.pendingSends).toBe(0);
  });

  it("times out both sends of a message sent twice when no ack comes", async () => {
    const url = await peer(() => undefined);
    client = await HubClient.connect({ url, identity, ackTimeoutMs: 100, reconnect: false });
    const message = note(8);
    const outcomes = await Promise.allSettled([client.send(message), client.send(message)]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected"]);
    for (const o of outcomes) {
      if (o.status === "rejected") expect((o.reason as OcpError).code).toBe("hub_timeout");
    }
  });
});
