import { afterEach, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { encodeControl } from "../src/control.js";
import {
  type ClientRegistration,
  CONTROL_TYPES,
  connectWs,
  type ReconnectInfo,
  SUBPROTOCOL,
  WsClient,
  type WsClientOptions,
  type WsServer,
} from "../src/index.js";
import {
  makeAgent,
  next,
  nextConnection,
  registryAuthenticate,
  startServer,
  type TestAgent,
  until,
  within,
} from "./helpers.js";

const alice = makeAgent("alice");
const mallory = makeAgent("mallory");
const servers: WsServer[] = [];
const clients: WsClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => within(c.close(), 10_000, "client close")));
  await Promise.all(servers.splice(0).map((s) => within(s.close(), 10_000, "server close")));
});

async function server(options: Partial<Parameters<typeof startServer>[0]> = {}, agents = [alice]) {
  const registry = registryAuthenticate(agents);
  const started = await startServer({ authenticate: registry.authenticate, ...options });
  servers.push(started);
  return { server: started, seen: registry.seen };
}

/** Client options announcing as `agent`, with the last sequence it saw. */
function as(agent: TestAgent, url: string, extra: Partial<WsClientOptions> = {}): WsClientOptions {
  return {
    url,
    announce: (nonce, context) =>
      agent.announce(nonce, context.lastSeq === undefined ? {} : { lastSeq: context.lastSeq }),
    reconnectBaseMs: 10,
    reconnectMaxMs: 50,
    handshakeTimeoutMs: 5_000,
    heartbeatIntervalMs: 60_000,
    heartbeatTimeoutMs: 60_000,
    closeTimeoutMs: 2_000,
    ...extra,
  };
}

function track(client: WsClient): WsClient {
  clients.push(client);
  return client;
}

describe("connectWs", () => {
  it("W-R1: registers with an announcement signed over the ack's nonce and exchanges raw messages", async () => {
    const { server: s } = await server();
    const got: string[] = [];
    const connected = nextConnection(s);
    const client = track(await connectWs(as(alice, s.url, { onMessage: (raw) => got.push(raw) })));
    expect(client.state).toBe("open");
    expect(client.agentId).toBe(alice.uri);
    const connection = await connected;
    const inbound = next<[string]>(connection, "message");
    expect(client.send('{"hello" : "hub"}')).toBe("sent");
    expect((await inbound)[0]).toBe('{"hello" : "hub"}');
    connection.send('{"hello" : "agent"}');
    await until(() => got.length === 1);
    expect(got).toEqual(['{"hello" : "agent"}']);
  });

  it("W-R2: a refused announcement rejects with its code and is not retried", async () => {
    const { server: s } = await server();
    let reconnects = 0;
    const client = new WsClient(as(mallory, s.url));
    client.on("reconnecting", () => {
      reconnects += 1;
    });
    await expect(client.connect()).rejects.toMatchObject({
      code: "authentication_failed",
      details: { code: 4001, reason: "unknown agent a2a://mallory.test.example" },
    });
    expect(client.state).toBe("closed");
    expect(reconnects).toBe(0);
    expect(client.send("{}")).toBe("closed");
  });

  it("W-R3: after a lost connection it reconnects with backoff, re-announces with lastSeq, then calls onReconnected", async () => {
    const { server: s, seen } = await server();
    const order: string[] = [];
    const first = nextConnection(s);
    const client = track(
      await connectWs(
        as(alice, s.url, {
          onReconnected: (_client, registration) => {
            order.push(`onReconnected:${String(registration.payload["resumeFrom"])}`);
          },
        }),
      ),
    );
    client.on("registered", (registration) => order.push(`registered:${registration.reconnected}`));
    client.lastSeq = 41;
    const reconnecting = next<[ReconnectInfo]>(client, "reconnecting");
    const second = nextConnection(s);
    (await first).abort(1011, "hub hiccup");
    const [info] = await reconnecting;
    expect(info).toMatchObject({ attempt: 1, previous: { code: 1011, initiator: "remote" } });
    expect(info.delayMs).toBeGreaterThanOrEqual(5);
    expect(info.delayMs).toBeLessThanOrEqual(10);
    const [registration] = await next<[ClientRegistration]>(client, "registered");
    expect(registration).toMatchObject({
      reconnected: true,
      agentId: alice.uri,
      payload: { resumeFrom: 41 },
    });
    expect(order).toEqual(["onReconnected:41", "registered:true"]);
    expect(seen.map((entry) => entry.lastSeq)).toEqual([undefined, 41]);
    const connection = await second;
    const inbound = next<[string]>(connection, "message");
    expect(client.send('{"after":"reconnect"}')).toBe("sent");
    expect((await inbound)[0]).toBe('{"after":"reconnect"}');
  });

  it("W-R4: survives a server restart on the same port (1001, refused dials, then registration)", async () => {
    const { server: s } = await server();
    const port = s.port;
    const client = track(await connectWs(as(alice, s.url)));
    const attempts: number[] = [];
    client.on("reconnecting", (info) => attempts.push(info.attempt));
    await within(s.close(), 5_000, "first server close");
    servers.splice(servers.indexOf(s), 1);
    await until(() => attempts.length >= 3, 5_000, "failed dials while the server is down");
    expect(client.send("{}")).toBe("closed");
    const registered = next<[ClientRegistration]>(client, "registered");
    await server({ port });
    expect((await registered)[0]).toMatchObject({ reconnected: true });
    expect(client.state).toBe("open");
  });

  it("W-R5: gives up with unreachable after reconnectMaxAttempts failed dials", async () => {
    const { server: s } = await server();
    const url = s.url;
    await s.close();
    servers.splice(0);
    const client = new WsClient(as(alice, url, { reconnectMaxAttempts: 3 }));
    const attempts: number[] = [];
    client.on("reconnecting", (info) => attempts.push(info.attempt));
    await expect(client.connect()).rejects.toMatchObject({
      code: "unreachable",
      details: { attempts: 3 },
    });
    expect(attempts).toEqual([1, 2, 3]);
  });

  it("W-R6: close sends a disconnect notice, closes with 1000 and does not reconnect", async () => {
    const { server: s } = await server();
    const connected = nextConnection(s);
    const client = await connectWs(as(alice, s.url));
    const connection = await connected;
    let reconnects = 0;
    client.on("reconnecting", () => {
      reconnects += 1;
    });
    const info = await within(client.close(1000, "done for today"), 5_000, "client close");
    expect(info).toMatchObject({ code: 1000, initiator: "local" });
    expect(await connection.closed).toMatchObject({
      code: 1000,
      initiator: "remote",
      notice: { code: 1000, reason: "done for today" },
    });
    expect(reconnects).toBe(0);
    expect(client.state).toBe("closed");
  });

  it("W-R7: detects a server that went silent by heartbeat (4004) and reconnects", async () => {
    // A server that completes the lifecycle, then stops reading its socket.
    const wss = new WebSocketServer({
      host: "127.0.0.1",
      port: 0,
      autoPong: false,
      handleProtocols: (protocols) => (protocols.has(SUBPROTOCOL) ? SUBPROTOCOL : false),
    });
    await new Promise((resolve) => wss.once("listening", resolve));
    const limits = {
      maxPayloadBytes: 1024,
      maxBatchRecords: 10,
      heartbeatIntervalMs: 1,
      heartbeatTimeoutMs: 1,
      handshakeTimeoutMs: 1,
    };
    wss.on("connection", (ws) => {
      ws.send(
        encodeControl(CONTROL_TYPES.ACK, { nonce: "n".repeat(43), serverTime: "now", limits }),
      );
      ws.once("message", () => {
        ws.send(encodeControl(CONTROL_TYPES.REGISTERED, { agentId: alice.uri }));
        (ws as unknown as { _socket: import("node:net").Socket })._socket.pause();
      });
    });
    const address = wss.address() as import("node:net").AddressInfo;
    const client = track(
      await connectWs(
        as(alice, `ws://127.0.0.1:${address.port}/`, {
          heartbeatIntervalMs: 20,
          heartbeatTimeoutMs: 40,
          closeTimeoutMs: 100,
        }),
      ),
    );
    const [info] = await next<[ReconnectInfo]>(client, "reconnecting");
    expect(info.previous).toMatchObject({
      code: 4004,
      initiator: "local",
      error: { code: "heartbeat_timeout" },
    });
    await within(client.close(), 5_000, "client close");
    clients.splice(0);
    for (const socket of wss.clients) socket.terminate();
    await new Promise((resolve) => wss.close(resolve));
  });

  it("W-R8: too many connections (4005) is retried; with reconnect false the client stops", async () => {
    const { server: s } = await server({ maxConnections: 1 });
    const holder = track(await connectWs(as(alice, s.url)));
    const retrying = new WsClient(as(alice, s.url));
    const reconnecting = next<[ReconnectInfo]>(retrying, "reconnecting");
    retrying.connect().catch(() => {});
    const [info] = await reconnecting;
    expect(info.previous).toMatchObject({ code: 4005 });
    await within(retrying.close(), 5_000, "retrying client close");
    const once = new WsClient(as(alice, s.url, { reconnect: false }));
    await expect(once.connect()).rejects.toMatchObject({ code: "too_many_connections" });
    expect(holder.state).toBe("open");
  });

  it("W-R9: close while waiting to reconnect stops for good", async () => {
    const { server: s } = await server();
    const url = s.url;
    const first = nextConnection(s);
    const client = await connectWs(
      as(alice, url, { reconnectBaseMs: 1_000, reconnectMaxMs: 2_000 }),
    );
    const reconnecting = next<[ReconnectInfo]>(client, "reconnecting");
    (await first).abort(1011, "hub hiccup");
    await reconnecting;
    expect(client.state).toBe("reconnecting");
    const info = await within(client.close(), 5_000, "client close");
    expect(info).toMatchObject({ code: 1000, initiator: "local" });
    expect(client.state).toBe("closed");
    // Nothing dials again: the server ends with no connection at all.
    await until(() => s.stats().connections === 0, 5_000, "the aborted connection to end");
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(s.stats().connections).toBe(0);
  });

  it("refuses a URL that is not ws:// or wss://", () => {
    expect(() => new WsClient(as(alice, "http://127.0.0.1:1/"))).toThrow(TypeError);
  });
});
