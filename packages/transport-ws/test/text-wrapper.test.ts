/**
 * §6.3 "for text-based WebSocket: `<message>JSON</message>`": a text frame
 * wrapped that way is unwrapped on receipt, in both directions (a server's
 * connection and a client's), the announcement included. We send bare JSON.
 */
import { afterEach, describe, expect, it } from "vitest";
import { connectWs, type WsClient, type WsServer } from "../src/index.js";
import { unwrapTextFrame } from "../src/internal.js";
import {
  makeAgent,
  next,
  nextConnection,
  nextJson,
  rawClient,
  registryAuthenticate,
  startServer,
  until,
  within,
} from "./helpers.js";

const alice = makeAgent("alice");
const servers: WsServer[] = [];
const clients: WsClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => within(c.close(), 10_000, "client close")));
  await Promise.all(servers.splice(0).map((s) => within(s.close(), 10_000, "server close")));
});

async function server(): Promise<WsServer> {
  const started = await startServer({ authenticate: registryAuthenticate([alice]).authenticate });
  servers.push(started);
  return started;
}

describe("§6.3 text-frame wrapper", () => {
  it("unwraps `<message>…</message>` and leaves anything else as it is", () => {
    expect(unwrapTextFrame('<message>{"a":1}</message>')).toBe('{"a":1}');
    expect(unwrapTextFrame(' \n<message>{"a":1}</message>\n')).toBe('{"a":1}');
    expect(unwrapTextFrame('{"a":"<message>x</message>"}')).toBe('{"a":"<message>x</message>"}');
    expect(unwrapTextFrame("<message>")).toBe("<message>");
  });

  it("a server connection accepts a wrapped announcement and wrapped messages", async () => {
    const s = await server();
    const connected = nextConnection(s);
    const ws = await rawClient(s.url);
    try {
      const ack = await nextJson(ws);
      const nonce = (ack["payload"] as { nonce: string }).nonce;
      ws.send(`<message>${alice.announce(nonce)}</message>`);
      const registered = await nextJson(ws);
      expect(registered["type"]).toBe("ocp.connection.registered");
      const connection = await connected;
      const inbound = next<[string, { binary: boolean }]>(connection, "message");
      ws.send('<message>{"hello":"hub"}</message>');
      const [raw, meta] = await inbound;
      expect(raw).toBe('{"hello":"hub"}');
      expect(meta.binary).toBe(false);
    } finally {
      ws.terminate();
    }
  }, 30_000);

  it("a client connection unwraps what the server sends wrapped", async () => {
    const s = await server();
    const got: string[] = [];
    const connected = nextConnection(s);
    const client = await connectWs({
      url: s.url,
      announce: (nonce) => alice.announce(nonce),
      onMessage: (raw) => got.push(raw),
      heartbeatIntervalMs: 60_000,
      heartbeatTimeoutMs: 60_000,
    });
    clients.push(client);
    const connection = await connected;
    connection.send('<message>{"hello":"agent"}</message>');
    await until(() => got.length === 1);
    expect(got).toEqual(['{"hello":"agent"}']);
  }, 30_000);
});
