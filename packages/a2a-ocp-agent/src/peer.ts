import { HubClient, type HubClientOptions } from "@ocp/a2a-ocp-client";
import {
  type AgentIdentity,
  type AgentProfile,
  type AuditLog,
  BROADCAST,
  createAgentProfile,
  encodeHubControl,
  HUB_TYPES,
  InboundPipeline,
  isHubFrame,
  type PlainMessage,
  profilePublicKey,
  RateLimiter,
  type RateLimitOptions,
  ReplayWindow,
  verifyAnnouncement,
} from "@ocp/a2a-ocp-messaging";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import type { Connection, LimitOptions } from "@ocp/transport-ws";
import { CLOSE_CODES, createWsServer } from "@ocp/transport-ws";
import { parseJsonText } from "@ocp/types";
import { agentError } from "./errors.js";
import { hubLink } from "./hub-link.js";
import type { AgentLink } from "./link.js";
import { PeerAudit } from "./peer-audit.js";

/**
 * Peer-to-peer (§2 "bidirectional, symmetric relationships", §6.2, the
 * card's `endpoints.websocket`): an agent serves `a2a-ocp-v1` itself and
 * other agents connect to it directly, no hub in between.
 *
 * The listener speaks the hub's side of our connection lifecycle, so a
 * connecting agent uses the same `HubClient`: `ocp.connection.ack` with a
 * fresh nonce → the peer's `ocp.hub.announce` (its signed profile, signed
 * over the nonce; the first key seen for an id is pinned) →
 * `ocp.connection.registered` (with `supportedFeatures`, §7.2) → messages.
 * Every message a peer sends goes through the same inbound pipeline as at
 * a hub (size, schema, signature by the announced key, freshness, replay,
 * rate limits), `from` must be the announced agent, and it is answered with
 * `ocp.hub.ack` or `ocp.hub.reject`. `ocp.hub.lookup` is answered with this
 * agent's profile (or a connected peer's). What the listening agent sends
 * goes to the connected peers it names (`broadcast`: all of them), as the
 * signed text itself.
 */

/** §7.1 features a peer link confirms (everything the agent runtime does). */
export const PEER_FEATURES = [
  "knowledge_streaming",
  "collective_query",
  "consensus_voting",
  "awareness_beacon",
  "event_publishing",
  "bidirectional_sync",
] as const;

export interface PeerListenerOptions {
  readonly identity: AgentIdentity;
  /** This agent's signed profile (created from `identity` when absent), served to lookups. */
  readonly profile?: AgentProfile;
  /** Interface, `127.0.0.1` by default; port, a free one by default. */
  readonly host?: string;
  readonly port?: number;
  /** Per-peer rate limits, as a hub's (`false`: none). */
  readonly rateLimits?: RateLimitOptions | false;
  /** WebSocket limits (payload size, heartbeats, slow consumers). */
  readonly transport?: LimitOptions;
  /**
   * §3 audit log: what peers sent that was accepted or refused (with the
   * reason), and what was delivered to them; pruned to its retention, closed
   * with the listener. None by default.
   */
  readonly audit?: AuditLog;
}

/** A listening agent endpoint. */
export interface PeerListener {
  /** The `ws://` URL peers connect to (the card's `endpoints.websocket`). */
  readonly url: string;
  /** The link to give the listening {@link OCPAgent}. */
  readonly link: AgentLink;
  /** Agent ids of the peers connected now. */
  peers(): string[];
  close(): Promise<void>;
}

interface Peer {
  readonly connection: Connection;
  readonly pipeline: InboundPipeline;
  chain: Promise<void>;
}

/** Serves `a2a-ocp-v1` for `options.identity`; give `listener.link` to its agent. */
export async function listenForPeers(options: PeerListenerOptions): Promise<PeerListener> {
  const { identity } = options;
  const profile = options.profile ?? createAgentProfile(identity, {}, nativeEd25519);
  const profiles = new Map<string, AgentProfile>([[identity.id, profile]]);
  const keys = new Map<string, Uint8Array>([[identity.id, identity.publicKey]]);
  const connected = new Map<string, Peer>();
  const handlers = new Set<(message: PlainMessage) => void>();
  const audit = options.audit === undefined ? undefined : new PeerAudit(options.audit);
  const replay = new ReplayWindow({});
  // One limiter for all connections: a peer that reconnects keeps its buckets.
  const rateLimiter =
    options.rateLimits === false ? undefined : new RateLimiter(options.rateLimits ?? {});
  const server = await createWsServer({
    ...options.transport,
    host: options.host ?? "127.0.0.1",
    port: options.port ?? 0,
    authenticate(announcement, nonce) {
      const verified = verifyAnnouncement(announcement, nonce, nativeEd25519);
      if (!verified.ok) return { refused: verified.error.message };
      const peer = verified.value.profile;
      const pinned = keys.get(peer.id);
      if (pinned !== undefined && Buffer.compare(pinned, verified.value.publicKey) !== 0)
        return { refused: `another key is pinned for ${peer.id}`, kind: "registration" };
      if (connected.has(peer.id))
        return { refused: `${peer.id} is already connected`, kind: "registration" };
      keys.set(peer.id, profilePublicKey(peer));
      profiles.set(peer.id, peer);
      return {
        agentId: peer.id,
        registration: { agentId: identity.id, supportedFeatures: [...PEER_FEATURES] },
      };
    },
  });

  const reply = (peer: Peer, type: string, payload: Record<string, unknown>) =>
    peer.connection.send(encodeHubControl(type, payload));

  async function receive(agentId: string, peer: Peer, frame: string): Promise<void> {
    if (isHubFrame(frame)) {
      const parsed = parseJsonText(frame);
      const control = (parsed.ok ? parsed.value : {}) as {
        type?: string;
        payload?: { agentId?: unknown };
      };
      if (control.type === HUB_TYPES.LOOKUP) {
        const wanted = String(control.payload?.agentId ?? "");
        reply(peer, HUB_TYPES.PROFILE, { agentId: wanted, profile: profiles.get(wanted) });
      }
      return;
    }
    // §6.3 text framing: `<message>JSON</message>`.
    const raw = /^<message>([\s\S]*)<\/message>$/.exec(frame.trim())?.[1] ?? frame;
    const accepted = await peer.pipeline.accept(raw);
    if (!accepted.ok) {
      audit?.refused(agentId, raw, accepted.error.code, accepted.error.message);
      const parsed = parseJsonText(raw);
      const id = parsed.ok ? (parsed.value as { id?: unknown }).id : undefined;
      reply(peer, HUB_TYPES.REJECT, {
        ...(typeof id === "string" ? { id } : {}),
        code: accepted.error.code,
        message: accepted.error.message,
      });
      return;
    }
    const message = accepted.value.message as PlainMessage;
    if (message.from !== agentId) {
      const why = `from ${message.from} on the connection of ${agentId}`;
      audit?.refused(agentId, raw, "sender_mismatch", why);
      reply(peer, HUB_TYPES.REJECT, { id: message.id, code: "sender_mismatch", message: why });
      return;
    }
    audit?.accepted(message);
    const to = message.to;
    const forUs =
      to === BROADCAST || to === identity.id || (Array.isArray(to) && to.includes(identity.id));
    reply(peer, HUB_TYPES.ACK, { id: message.id, recipients: forUs ? 1 : 0, durable: false });
    if (forUs && (message as { encrypted?: unknown }).encrypted !== true)
      for (const handler of handlers) handler(message);
  }

  server.on("connection", (connection, info) => {
    const peer: Peer = {
      connection,
      pipeline: new InboundPipeline({
        lookupKey: (id) => keys.get(id),
        ed25519: nativeEd25519,
        replay,
        rateLimiter,
      }),
      chain: Promise.resolve(),
    };
    connected.set(info.agentId, peer);
    connection.on("message", (frame) => {
      peer.chain = peer.chain.then(() => receive(info.agentId, peer, frame)).catch(() => undefined);
    });
    connection.on("close", () => {
      if (connected.get(info.agentId) === peer) connected.delete(info.agentId);
    });
  });

  const link: AgentLink = {
    lookupKey: (id) => keys.get(id),
    async send(message) {
      const to = message["to"];
      const targets =
        to === BROADCAST ? [...connected.keys()] : typeof to === "string" ? [to] : (to as string[]);
      const raw = JSON.stringify(message);
      let recipients = 0;
      for (const id of targets) {
        const status = connected.get(id)?.connection.send(raw);
        if (status !== undefined && status !== "closed") recipients += 1;
        if (status === "sent" || status === "queued") audit?.delivered(message, id);
      }
      if (recipients === 0 && to !== BROADCAST)
        throw agentError("not_connected", `no peer connection to ${String(to)}`);
      return { recipients };
    },
    onMessage(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    async close() {
      await server.close(CLOSE_CODES.GOING_AWAY, "agent leaving");
      await audit?.close();
    },
  };
  return {
    url: server.url,
    link,
    peers: () => [...connected.keys()],
    close: () => link.close(),
  };
}

/** Options of a direct connection to a listening agent. */
export type PeerLinkOptions = Pick<
  HubClientOptions,
  "url" | "identity" | "profile" | "transport"
> & {
  /** Reconnect after a lost connection (default true). */
  readonly reconnect?: boolean;
};

/** An {@link AgentLink} to a listening agent (its `endpoints.websocket`): the same client as to a hub. */
export async function peerLink(options: PeerLinkOptions): Promise<AgentLink> {
  return hubLink(await HubClient.connect(options));
}
