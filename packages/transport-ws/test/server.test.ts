import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { CLOSE_CODES, type RefusalInfo, SUBPROTOCOL, type WsServer } from "../src/index.js";
import {
  closeOf,
  makeAgent,
  next,
  nextConnection,
  nextJson,
  nextText,
  rawClient,
  registerRaw,
  registryAuthenticate,
  startServer,
  until,
  within,
} from "./helpers.js";

const alice = makeAgent("alice");
const mallory = makeAgent("mallory");
const servers: WsServer[] = [];

async function server(options: Parameters<typeof startServer>[0]) {
  const started = await startServer(options);
  servers.push(started);
  return started;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => within(s.close(), 10_000, "server close")));
});

describe("upgrade (§6.2)", () => {
  it("W-S1: refuses an upgrade that does not offer a2a-ocp-v1 (HTTP 400)", async () => {
    const s = await server({ authenticate: () => ({ refused: "unused" }) });
    for (const protocols of [["chat"], []]) {
      const ws = new WebSocket(s.url, protocols);
      ws.on("error", () => {});
      const [, response] = await next<[unknown, { statusCode: number }]>(ws, "unexpected-response");
      expect(response.statusCode).toBe(400);
      ws.terminate();
    }
    expect(s.stats().connections).toBe(0);
  });

  it("W-S1: selects a2a-ocp-v1 among several offered subprotocols", async () => {
    const s = await server({ authenticate: () => ({ refused: "unused" }) });
    const ws = await rawClient(s.url, ["chat", SUBPROTOCOL]);
    expect(ws.protocol).toBe(SUBPROTOCOL);
    ws.terminate();
  });
});

describe("browser origins at the upgrade", () => {
  /** The HTTP status of an upgrade with these headers, or "open". */
  async function upgrade(url: string, headers: Record<string, string>): Promise<number | "open"> {
    const ws = new WebSocket(url, [SUBPROTOCOL], { headers, perMessageDeflate: false });
    ws.on("error", () => {});
    const status = await new Promise<number | "open">((resolve) => {
      ws.once("open", () => resolve("open"));
      ws.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    });
    ws.terminate();
    return status;
  }

  it("refuses an upgrade from a browser origin that is not listed (HTTP 403), none listed by default", async () => {
    const s = await server({ authenticate: () => ({ refused: "unused" }) });
    for (const origin of ["https://evil.example", "null", `http://127.0.0.1:${s.port}`]) {
      expect(await upgrade(s.url, { origin })).toBe(403);
    }
    expect(s.stats().connections).toBe(0);
  });

  it("accepts an upgrade from a listed origin and refuses any other", async () => {
    const s = await server({
      authenticate: () => ({ refused: "unused" }),
      allowedOrigins: ["https://console.example:8443/"],
    });
    expect(await upgrade(s.url, { origin: "https://console.example:8443" })).toBe("open");
    expect(await upgrade(s.url, { origin: "https://console.example" })).toBe(403);
    expect(await upgrade(s.url, { origin: "http://console.example:8443" })).toBe(403);
    expect(await upgrade(s.url, { origin: "https://evil.example" })).toBe(403);
  });

  it("accepts an upgrade without an Origin header (a non-browser client)", async () => {
    const s = await server({ authenticate: () => ({ refused: "unused" }) });
    expect(await upgrade(s.url, {})).toBe("open");
  });

  it("refuses to start with an allowed origin that is not scheme://host[:port]", async () => {
    for (const bad of ["*", "evil.example", "https://a.example/path", "ftp://a.example"]) {
      await expect(
        startServer({ authenticate: () => ({ refused: "unused" }), allowedOrigins: [bad] }),
      ).rejects.toThrow(TypeError);
    }
  });
});

describe("lifecycle (§6.4)", () => {
  it("W-L1: acks each connection with a fresh nonce and its limits", async () => {
    const s = await server({ authenticate: () => ({ refused: "unused" }), maxPayloadBytes: 4096 });
    const a = await rawClient(s.url);
    const b = await rawClient(s.url);
    const [ackA, ackB] = await Promise.all([nextJson(a), nextJson(b)]);
    expect(ackA).toMatchObject({
      protocol: "a2a+ocp",
      type: "ocp.connection.ack",
      payload: { limits: { maxPayloadBytes: 4096 } },
    });
    const nonceA = (ackA["payload"] as { nonce: string }).nonce;
    expect(nonceA).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(nonceA).not.toBe((ackB["payload"] as { nonce: string }).nonce);
    a.terminate();
    b.terminate();
  });

  it("W-L2: registers an announcement signed over its nonce and emits the connection", async () => {
    const { authenticate } = registryAuthenticate([alice]);
    const s = await server({ authenticate });
    const connected = nextConnection(s);
    const { ws, reply } = await registerRaw(s.url, alice);
    expect(reply).toMatchObject({
      type: "ocp.connection.registered",
      payload: { agentId: alice.uri },
    });
    const connection = await connected;
    expect(connection.agentId).toBe(alice.uri);
    expect(connection.state).toBe("open");
    expect(s.connections().has(connection)).toBe(true);
    ws.terminate();
  });

  it("W-L3: passes application messages through as the exact text, both ways", async () => {
    const { authenticate } = registryAuthenticate([alice]);
    const s = await server({ authenticate });
    const connected = nextConnection(s);
    const { ws } = await registerRaw(s.url, alice);
    const connection = await connected;
    const odd = '{ "z" : 1,"a":[1.0, 2e0], "s":"é\\u00e9"  }';
    const received = next<[string, { binary: boolean }]>(connection, "message");
    ws.send(odd);
    expect(await received).toEqual([odd, { binary: false }]);
    expect(connection.send(odd)).toBe("sent");
    expect(await nextText(ws)).toBe(odd);
    expect(connection.send(Buffer.from(odd))).toBe("sent");
    expect(await nextText(ws)).toBe(odd);
    ws.terminate();
  });

  it("W-A1: a forged announcement (signed with another key) is refused with 4001 and a reason", async () => {
    const { authenticate } = registryAuthenticate([alice]);
    const s = await server({ authenticate });
    const refused = next<[RefusalInfo]>(s, "refused");
    const ws = await rawClient(s.url);
    const nonce = ((await nextJson(ws))["payload"] as { nonce: string }).nonce;
    const forged = JSON.parse(mallory.announce(nonce));
    forged.from = alice.uri;
    forged.payload.agent = alice.uri;
    const closed = closeOf(ws);
    ws.send(JSON.stringify(forged));
    expect(await nextJson(ws)).toMatchObject({
      type: "ocp.connection.refused",
      payload: { code: 4001, reason: "signature does not verify under the agent's key" },
    });
    expect(await closed).toEqual({
      code: 4001,
      reason: "signature does not verify under the agent's key",
    });
    const [info] = await refused;
    expect(info).toMatchObject({ code: 4001, error: { code: "authentication_failed" } });
    expect(s.connections().size).toBe(0);
  });

  it("W-A2: an announcement signed over another nonce is refused with 4001", async () => {
    const { authenticate } = registryAuthenticate([alice]);
    const s = await server({ authenticate });
    const ws = await rawClient(s.url);
    await nextJson(ws);
    const closed = closeOf(ws);
    ws.send(alice.announce("a-stale-nonce-from-somewhere-else-0000000000"));
    expect(await closed).toEqual({ code: 4001, reason: "nonce mismatch (stale or replayed)" });
  });

  it("W-A3: an announcement replayed on a new connection is refused with 4001", async () => {
    const { authenticate } = registryAuthenticate([alice]);
    const s = await server({ authenticate });
    const first = await rawClient(s.url);
    const nonce = ((await nextJson(first))["payload"] as { nonce: string }).nonce;
    const captured = alice.announce(nonce);
    first.send(captured);
    expect(await nextJson(first)).toMatchObject({ type: "ocp.connection.registered" });
    const replay = await rawClient(s.url);
    await nextJson(replay);
    const closed = closeOf(replay);
    replay.send(captured);
    expect((await closed).code).toBe(CLOSE_CODES.AUTHENTICATION_FAILED);
    // Even with the nonce field rewritten, the signature covers the old nonce.
    const again = await rawClient(s.url);
    const fresh = ((await nextJson(again))["payload"] as { nonce: string }).nonce;
    const rewritten = JSON.parse(captured);
    rewritten.payload.nonce = fresh;
    const closedAgain = closeOf(again);
    again.send(JSON.stringify(rewritten));
    expect(await closedAgain).toEqual({
      code: 4001,
      reason: "signature does not verify under the agent's key",
    });
    first.terminate();
  });

  it("W-A4: a registration refusal closes with 4002, a policy refusal with 4008", async () => {
    const kinds = ["registration", "policy"] as const;
    for (const [i, kind] of kinds.entries()) {
      const s = await server({ authenticate: () => ({ refused: `no (${kind})`, kind }) });
      const ws = await rawClient(s.url);
      await nextJson(ws);
      const closed = closeOf(ws);
      ws.send(alice.announce("x"));
      expect(await closed).toEqual({ code: [4002, 4008][i], reason: `no (${kind})` });
    }
  });

  it("W-A5: an authenticate callback that throws closes with 1011, and the server keeps serving", async () => {
    let calls = 0;
    const s = await server({
      authenticate: () => {
        calls += 1;
        if (calls === 1) throw new Error("key store down");
        return { agentId: "a2a://ok" };
      },
    });
    const ws = await rawClient(s.url);
    await nextJson(ws);
    const closed = closeOf(ws);
    ws.send("{}");
    expect((await closed).code).toBe(CLOSE_CODES.INTERNAL_ERROR);
    const second = await rawClient(s.url);
    await nextJson(second);
    second.send("{}");
    expect(await nextJson(second)).toMatchObject({ payload: { agentId: "a2a://ok" } });
    second.terminate();
  });

  it("W-L4: an announcement that is not JSON closes with 4000", async () => {
    const s = await server({ authenticate: () => ({ agentId: "a2a://never" }) });
    const ws = await rawClient(s.url);
    await nextJson(ws);
    const closed = closeOf(ws);
    ws.send("<message>hello</message>");
    expect(await closed).toEqual({ code: 4000, reason: "announcement is not I-JSON" });
  });

  it("W-L4: an announcement with duplicate member names (I-JSON) closes with 4000, unauthenticated", async () => {
    let asked = 0;
    const s = await server({
      authenticate: () => {
        asked += 1;
        return { agentId: "a2a://never" };
      },
    });
    const ws = await rawClient(s.url);
    await nextJson(ws);
    const closed = closeOf(ws);
    ws.send('{"type":"ocp.connection.announce","type":"x","payload":{}}');
    expect(await closed).toEqual({ code: 4000, reason: "announcement is not I-JSON" });
    expect(asked).toBe(0);
  });

  it("W-L5: a message sent before registration is confirmed closes with 4000", async () => {
    const s = await server({ authenticate: () => new Promise(() => {}) });
    const ws = await rawClient(s.url);
    await nextJson(ws);
    const closed = closeOf(ws);
    ws.send("{}");
    ws.send('{"type":"ocp.knowledge.stream"}');
    expect(await closed).toEqual({ code: 4000, reason: "message before registration" });
  });

  it("W-L6: no announcement within handshakeTimeoutMs closes with 4006", async () => {
    const s = await server({
      authenticate: () => ({ agentId: "a2a://never" }),
      handshakeTimeoutMs: 50,
    });
    const ws = await rawClient(s.url);
    expect(await closeOf(ws)).toEqual({ code: 4006, reason: "handshake timeout" });
  });

  it("W-L7: the server's shutdown sends a disconnect notice, then closes with 1001", async () => {
    const { authenticate } = registryAuthenticate([alice]);
    const s = await server({ authenticate });
    const { ws } = await registerRaw(s.url, alice);
    const notice = nextJson(ws);
    const closed = closeOf(ws);
    await within(s.close(), 5_000, "close");
    expect(await notice).toMatchObject({
      type: "ocp.connection.disconnect",
      payload: { code: 1001, reason: "server shutting down" },
    });
    expect(await closed).toEqual({ code: 1001, reason: "server shutting down" });
  });
});

describe("attaching", () => {
  it("W-S2: attaches to a listening HTTP server and leaves it open on close", async () => {
    const http = createServer((_request, response) => response.end("a2a card"));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const { authenticate } = registryAuthenticate([alice]);
    const s = await startServer({ authenticate, httpServer: http, path: "/ocp" });
    expect(s.url).toBe(`ws://127.0.0.1:${(http.address() as AddressInfo).port}/ocp`);
    const { ws, reply } = await registerRaw(s.url, alice);
    expect(reply).toMatchObject({ type: "ocp.connection.registered" });
    const closed = closeOf(ws);
    await within(s.close(), 5_000, "ws server close");
    expect((await closed).code).toBe(1001);
    expect(http.listening).toBe(true);
    await new Promise((resolve) => http.close(resolve));
  });
});

describe("limits", () => {
  it("W-C1: a connection beyond maxConnections is closed with 4005", async () => {
    const s = await server({ authenticate: () => ({ agentId: "a2a://a" }), maxConnections: 2 });
    const a = await rawClient(s.url);
    const b = await rawClient(s.url);
    const c = await rawClient(s.url);
    expect(await closeOf(c)).toEqual({ code: 4005, reason: "too many connections" });
    await until(() => s.stats().connections === 2, 5_000, "the refused connection to end");
    expect(s.stats()).toMatchObject({ connections: 2, refused: 1 });
    a.terminate();
    b.terminate();
  });

  it("W-C2: a message longer than maxPayloadBytes closes with 1009", async () => {
    const s = await server({ authenticate: () => ({ agentId: "a2a://a" }), maxPayloadBytes: 1024 });
    const connected = nextConnection(s);
    const ws = await rawClient(s.url);
    await nextJson(ws);
    ws.send("{}");
    await nextJson(ws);
    const connection = await connected;
    const closed = closeOf(ws);
    ws.send(`"${"x".repeat(1100)}"`);
    expect((await closed).code).toBe(CLOSE_CODES.MESSAGE_TOO_BIG);
    expect(await connection.closed).toMatchObject({
      code: 1009,
      error: { code: "payload_too_large" },
    });
  });

  it("W-C3: send refuses a message longer than maxPayloadBytes with payload_too_large", async () => {
    const s = await server({ authenticate: () => ({ agentId: "a2a://a" }), maxPayloadBytes: 1024 });
    const connected = nextConnection(s);
    const ws = await rawClient(s.url);
    await nextJson(ws);
    ws.send("{}");
    const connection = await connected;
    expect(() => connection.send("x".repeat(1025))).toThrow(
      expect.objectContaining({ code: "payload_too_large" }),
    );
    expect(connection.send("x".repeat(1024))).toBe("sent");
    ws.terminate();
  });
});
