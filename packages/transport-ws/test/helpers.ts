/**
 * Test helpers: a tiny Ed25519 announcement signer and the `authenticate`
 * callback that verifies it (standing in for @ocp/a2a-ocp-messaging), raw
 * `ws` clients, and bounded waits.
 */
import { generateKeyPairSync, type KeyObject, sign, verify } from "node:crypto";
import type { EventEmitter } from "node:events";
import { afterEach } from "vitest";
import { WebSocket } from "ws";
import { z } from "zod";
import {
  type AuthenticateResult,
  type CloseInfo,
  type Connection,
  createWsServer,
  SUBPROTOCOL,
  type WsServer,
  type WsServerOptions,
} from "../src/index.js";

/** Every wait in the tests is bounded by this. */
export const WAIT_MS = 10_000;

/** Resolves with the arguments of the next `event`, or rejects after `ms`. */
export function next<T extends unknown[] = unknown[]>(
  emitter: Pick<EventEmitter, "once" | "off">,
  event: string,
  ms = WAIT_MS,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const listener = (...args: unknown[]) => {
      clearTimeout(timer);
      resolve(args as T);
    };
    const timer = setTimeout(() => {
      emitter.off(event, listener);
      reject(new Error(`no "${event}" within ${ms} ms`));
    }, ms);
    emitter.once(event, listener);
  });
}

/** `promise`, or a rejection after `ms`. */
export function within<T>(promise: Promise<T>, ms = WAIT_MS, what = "operation"): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Polls `condition` every few ms until it holds, bounded by `ms`. */
export async function until(
  condition: () => boolean,
  ms = WAIT_MS,
  what = "condition",
): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`${what} did not hold within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** An agent with an `a2a://` URI and an Ed25519 key pair. */
export interface TestAgent {
  uri: string;
  publicKey: KeyObject;
  privateKey: KeyObject;
  /** The announcement, signed over `nonce` and the URI. */
  announce(nonce: string, extra?: Record<string, unknown>): string;
}

/** The bytes an announcement signature covers. */
export function signedBytes(nonce: string, uri: string): Buffer {
  return Buffer.from(`a2a-ocp-v1 announce\n${nonce}\n${uri}`, "utf8");
}

export function makeAgent(name: string): TestAgent {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const uri = `a2a://${name}.test.example`;
  return {
    uri,
    publicKey,
    privateKey,
    announce(nonce, extra = {}) {
      const signature = sign(null, signedBytes(nonce, uri), privateKey).toString("base64");
      return JSON.stringify({
        protocol: "a2a+ocp",
        version: "1.0.0",
        type: "agent.announce",
        from: uri,
        payload: { agent: uri, nonce, signature, ...extra },
      });
    },
  };
}

const AnnouncementSchema = z.object({
  type: z.literal("agent.announce"),
  from: z.string(),
  payload: z.looseObject({
    agent: z.string().startsWith("a2a://"),
    nonce: z.string(),
    signature: z.string(),
    lastSeq: z.number().int().optional(),
  }),
});

/**
 * Verifies announcements against a registry of known agents: the URI must
 * be known, the nonce must be this connection's, and the signature must
 * verify under the URI's registered key over this connection's nonce.
 */
export function registryAuthenticate(agents: readonly TestAgent[]) {
  const keys = new Map(agents.map((agent) => [agent.uri, agent.publicKey]));
  const seen: { agentId: string; lastSeq: number | undefined }[] = [];
  const authenticate = (announcement: unknown, nonce: string): AuthenticateResult => {
    const parsed = AnnouncementSchema.safeParse(announcement);
    if (!parsed.success) return { refused: "malformed announcement" };
    const { agent, signature, lastSeq } = parsed.data.payload;
    const key = keys.get(agent);
    if (key === undefined) return { refused: `unknown agent ${agent}` };
    if (parsed.data.payload.nonce !== nonce)
      return { refused: "nonce mismatch (stale or replayed)" };
    const ok = verify(null, signedBytes(nonce, agent), key, Buffer.from(signature, "base64"));
    if (!ok) return { refused: "signature does not verify under the agent's key" };
    seen.push({ agentId: agent, lastSeq });
    return { agentId: agent, registration: { resumeFrom: lastSeq ?? null } };
  };
  return { authenticate, seen };
}

/** A server on 127.0.0.1, port 0, with short test timeouts unless overridden. */
export function startServer(
  options: Partial<WsServerOptions> & Pick<WsServerOptions, "authenticate">,
) {
  return createWsServer({
    heartbeatIntervalMs: 60_000,
    heartbeatTimeoutMs: 60_000,
    handshakeTimeoutMs: 5_000,
    closeTimeoutMs: 2_000,
    ...options,
  });
}

interface Inbox {
  texts: string[];
  waiters: ((text: string) => void)[];
}

const inboxes = new WeakMap<WebSocket, Inbox>();

/**
 * A raw `ws` client offering `protocols`; resolves when open. Text messages
 * are kept in an inbox from the start (the ack can arrive in the same tick as
 * the open event), read with {@link nextText} / {@link nextJson}.
 */
export function rawClient(url: string, protocols: string[] = [SUBPROTOCOL]): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, { perMessageDeflate: false });
    const inbox: Inbox = { texts: [], waiters: [] };
    inboxes.set(ws, inbox);
    ws.on("message", (data, isBinary) => {
      if (isBinary) return;
      const text = (data as Buffer).toString("utf8");
      const waiter = inbox.waiters.shift();
      if (waiter) waiter(text);
      else inbox.texts.push(text);
    });
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });
}

/** The next text message of a raw client. */
export function nextText(ws: WebSocket, ms = WAIT_MS): Promise<string> {
  const inbox = inboxes.get(ws);
  if (inbox === undefined) throw new Error("not a rawClient");
  const queued = inbox.texts.shift();
  if (queued !== undefined) return Promise.resolve(queued);
  return new Promise((resolve, reject) => {
    const waiter = (text: string) => {
      clearTimeout(timer);
      resolve(text);
    };
    const timer = setTimeout(() => {
      inbox.waiters.splice(inbox.waiters.indexOf(waiter), 1);
      reject(new Error(`no message within ${ms} ms`));
    }, ms);
    inbox.waiters.push(waiter);
  });
}

/** The parsed next text message of a raw client. */
export async function nextJson(ws: WebSocket, ms = WAIT_MS): Promise<Record<string, unknown>> {
  return JSON.parse(await nextText(ws, ms)) as Record<string, unknown>;
}

/** The close code and reason a raw client sees. */
export function closeOf(ws: WebSocket, ms = WAIT_MS): Promise<{ code: number; reason: string }> {
  return new Promise((resolve, reject) => {
    if (ws.readyState === WebSocket.CLOSED) {
      reject(new Error("already closed"));
      return;
    }
    const timer = setTimeout(() => reject(new Error(`no close within ${ms} ms`)), ms);
    ws.once("close", (code, reason) => {
      clearTimeout(timer);
      resolve({ code, reason: reason.toString("utf8") });
    });
  });
}

/**
 * A raw client that goes through the lifecycle as `agent`: reads the ack,
 * announces, and resolves with the registered message and the nonce.
 */
export async function registerRaw(url: string, agent: TestAgent) {
  const ws = await rawClient(url);
  const ack = await nextJson(ws);
  const nonce = (ack["payload"] as { nonce: string }).nonce;
  ws.send(agent.announce(nonce));
  const reply = await nextJson(ws);
  return { ws, ack, nonce, reply };
}

/** The next registered connection of `server` and its close info promise. */
export async function nextConnection(server: WsServer): Promise<Connection> {
  const [connection] = await next<[Connection]>(server, "connection");
  return connection;
}

export type { CloseInfo };

/**
 * Server and client pairs for the tests of one file: `pair(options)` starts a
 * server and registers a raw client as `agent`, giving the server side's
 * connection; `keep(ws)` adds a client a test opened itself. Every server and
 * client is closed after each test.
 */
export function connectionPairs(agent: TestAgent) {
  const servers: WsServer[] = [];
  const clients: WebSocket[] = [];
  afterEach(async () => {
    for (const ws of clients.splice(0)) ws.terminate();
    await Promise.all(servers.splice(0).map((s) => within(s.close(), WAIT_MS, "server close")));
  });
  return {
    async pair(options: Partial<WsServerOptions> = {}) {
      const { authenticate } = registryAuthenticate([agent]);
      const server = await startServer({ authenticate, ...options });
      servers.push(server);
      const connected = nextConnection(server);
      const { ws } = await registerRaw(server.url, agent);
      clients.push(ws);
      return { server, ws, connection: await connected };
    },
    keep(ws: WebSocket): void {
      clients.push(ws);
    },
  };
}

/** Stops (or restarts) reading the client's socket, as a consumer that stalls. */
export function reading(ws: WebSocket, on: boolean): void {
  const socket = (ws as unknown as { _socket: import("node:net").Socket })._socket;
  if (on) socket.resume();
  else socket.pause();
}
