/**
 * An a2a+ocp agent written from the specification text (and the hub's
 * documented connection lifecycle) only: plain `ws` and `node:crypto`, no
 * import from this repository's packages. It is what a second implementer
 * would write; the tests use it to check that what such an agent sends in
 * the specification's own shapes takes effect in ours.
 *
 * - §6.2: WebSocket subprotocol `a2a-ocp-v1`.
 * - §6.4: server ack (`ocp.connection.ack`, a nonce) → our announcement
 *   (`ocp.hub.announce`: a self-signed profile and the nonce, signed) →
 *   registration (`ocp.connection.registered`) → messages.
 * - §4.1 envelope; §8.2 signature: Ed25519 over the RFC 8785 canonical JSON
 *   of the whole message minus `signature`, base64.
 * - The hub's identity (`payload.hub` of the registration: `{id, publicKey}`)
 *   verifies what the hub signs (`ocp.event.notification`).
 * - Durable messages arrive wrapped: `{"type":"ocp.hub.deliver","seq":N,"message":M}`.
 * - §7.3 discovery: `ocp.hub.discovery.query {queryId, protocols?, features?,
 *   workspace?}` answered by `ocp.hub.discovery.result {queryId, cards, truncated}`.
 */
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomUUID,
  sign,
  verify,
} from "node:crypto";
import WebSocket from "ws";

/** RFC 8785 canonical JSON (enough for the values sent here: no floats with exponents). */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
}

function signed<T extends Record<string, unknown>>(
  value: T,
  key: KeyObject,
): T & { signature: string } {
  const { signature: _drop, ...rest } = value as Record<string, unknown>;
  const signature = sign(null, Buffer.from(canonical(rest), "utf8"), key).toString("base64");
  return { ...(rest as T), signature };
}

/** Whether `message` carries a valid §8.2 signature by the Ed25519 key `publicKey` (32 bytes, base64). */
export function verifySigned(message: Record<string, unknown>, publicKey: string): boolean {
  const { signature, ...rest } = message;
  if (typeof signature !== "string") return false;
  const x = Buffer.from(publicKey, "base64").toString("base64url");
  const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x }, format: "jwk" });
  return verify(null, Buffer.from(canonical(rest), "utf8"), key, Buffer.from(signature, "base64"));
}

/** A §4.1 message as received. */
export type Received = Record<string, unknown> & {
  id: string;
  from: string;
  type: string;
  payload: Record<string, unknown>;
};

export interface SpecAgent {
  readonly id: string;
  /** The hub's identity, from the registration frame. */
  readonly hub: { id: string; publicKey: string };
  /** Every frame received after registration. */
  readonly frames: string[];
  /** The messages received (bare, or unwrapped from a durable delivery), in arrival order. */
  messages(type?: string): Received[];
  /**
   * Builds, signs and sends a §4.1 message (`envelope`: optional fields such
   * as `reply_to`, `priority`); resolves with its id when the hub acknowledged it.
   */
  send(
    type: string,
    to: string,
    payload: unknown,
    envelope?: Record<string, unknown>,
  ): Promise<string>;
  /** §7.3: asks the hub for the cards matching `query`. */
  discover(query: Record<string, unknown>): Promise<{ cards: unknown[]; truncated: boolean }>;
  close(): void;
}

/**
 * Connects `id` to the hub at `url` and registers it; `card` adds fields to
 * its profile (§7.1 `capabilities`, `workspace`, …).
 */
export function connectSpecAgent(
  url: string,
  id: string,
  card: Record<string, unknown> = {},
  timeoutMs = 20_000,
): Promise<SpecAgent> {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const key = createPrivateKey(privateKey.export({ format: "pem", type: "pkcs8" }));
  const raw = Buffer.from(publicKey.export({ format: "jwk" }).x as string, "base64url");
  const profile = signed(
    {
      ...card,
      id,
      protocols: ["a2a", "a2a+ocp"],
      publicKey: raw.toString("base64"),
      keyAlgorithm: "Ed25519",
      issuedAt: new Date().toISOString(),
    },
    key,
  );
  const ws = new WebSocket(url, ["a2a-ocp-v1"]);
  const frames: string[] = [];
  const acks = new Map<string, (error?: Error) => void>();
  const queries = new Map<string, (payload: Record<string, unknown>) => void>();
  const hub = { id: "", publicKey: "" };
  return new Promise<SpecAgent>((resolve, reject) => {
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error(`${id} was not registered in time`));
    }, timeoutMs);
    ws.on("error", reject);
    ws.on("close", (code, reason) => reject(new Error(`closed ${code} ${reason.toString()}`)));
    let registered = false;
    ws.on("message", (data) => {
      const text = data.toString();
      const frame = JSON.parse(text) as { type: string; payload?: Record<string, unknown> };
      if (!registered) {
        if (frame.type === "ocp.connection.ack") {
          const announcement = signed(
            {
              protocol: "a2a+ocp",
              type: "ocp.hub.announce",
              version: "1.0.0",
              payload: { profile, nonce: frame.payload?.["nonce"] },
            },
            key,
          );
          ws.send(JSON.stringify(announcement));
        } else if (frame.type === "ocp.connection.registered") {
          const named = frame.payload?.["hub"] as { id: string; publicKey: string };
          hub.id = named.id;
          hub.publicKey = named.publicKey;
          registered = true;
          clearTimeout(timer);
          resolve(agent);
        }
        return;
      }
      frames.push(text);
      const settle = acks.get(String(frame.payload?.["id"] ?? ""));
      if (frame.type === "ocp.hub.ack") settle?.();
      if (frame.type === "ocp.hub.discovery.result") {
        queries.get(String(frame.payload?.["queryId"]))?.(frame.payload ?? {});
      }
      if (frame.type === "ocp.hub.reject")
        settle?.(
          new Error(`${String(frame.payload?.["code"])}: ${String(frame.payload?.["message"])}`),
        );
    });
    const agent: SpecAgent = {
      id,
      hub,
      frames,
      messages(type) {
        const all = frames.flatMap((text) => {
          const frame = JSON.parse(text) as Record<string, unknown>;
          if (frame["type"] === "ocp.hub.deliver") return [frame["message"] as Received];
          return typeof frame["id"] === "string" ? [frame as Received] : [];
        });
        return type === undefined ? all : all.filter((m) => m.type === type);
      },
      discover(query) {
        const queryId = randomUUID();
        return new Promise((ok) => {
          queries.set(queryId, (payload) =>
            ok(payload as { cards: unknown[]; truncated: boolean }),
          );
          const frame = {
            protocol: "a2a+ocp",
            type: "ocp.hub.discovery.query",
            payload: { ...query, queryId },
          };
          ws.send(JSON.stringify(frame));
        });
      },
      send(type, to, payload, envelope = {}) {
        const message = signed(
          {
            ...envelope,
            protocol: "a2a+ocp",
            version: "1.0.0",
            id: randomUUID(),
            from: id,
            to,
            timestamp: new Date().toISOString(),
            type,
            payload,
          },
          key,
        );
        return new Promise<string>((ok, fail) => {
          acks.set(message.id, (error) => (error === undefined ? ok(message.id) : fail(error)));
          ws.send(JSON.stringify(message));
        });
      },
      close() {
        ws.removeAllListeners("close");
        ws.close(1000, "done");
      },
    };
  });
}
