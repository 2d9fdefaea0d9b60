import { HubClient, type HubClientOptions } from "@ocp/a2a-ocp-client";
import {
  type AgentIdentity,
  type AgentProfile,
  type AuditLog,
  BROADCAST,
  createAgentProfile,
  InboundPipeline,
  mayReceive,
  OCP_FEATURES,
  type PlainMessage,
  RateLimiter,
  type RateLimitOptions,
  ReplayWindow,
  type Visibility,
  type VisibilityPolicy,
} from "@ocp/a2a-ocp-messaging";
import {
  accessControlledNodes,
  cardMatches,
  checkSealedEnvelope,
  encodeHubControl,
  HUB_TYPES,
  isHubFrame,
  verifyAnnouncement,
} from "@ocp/a2a-ocp-messaging/internal";
import { createDecompressor, nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import type { Connection, LimitOptions } from "@ocp/transport-ws";
import { CLOSE_CODES, createWsServer } from "@ocp/transport-ws";
import type { OcpError } from "@ocp/types";
import { parseJsonText } from "@ocp/types/internal";
import { inflatedPayload } from "./compression.js";
import { agentError } from "./errors.js";
import { hubLink } from "./hub-link.js";
import type { AgentLink } from "./link.js";
import { type AllowedPeer, type AllowedPeers, PeerAllowList } from "./peer-allow.js";
import { PeerAudit } from "./peer-audit.js";
import { PeerControl } from "./peer-control.js";

/**
 * Peer-to-peer (§2 "bidirectional, symmetric relationships", §6.2, the
 * card's `endpoints.websocket`): an agent serves `a2a-ocp-v1` itself and
 * other agents connect to it directly, no hub in between.
 *
 * The listener speaks the hub's side of our connection lifecycle, so a
 * connecting agent uses the same `HubClient`: `ocp.connection.ack` with a
 * fresh nonce and `hub` (the listener's id, key and profile) → the peer's
 * `ocp.hub.announce` (its signed profile, signed over the nonce) →
 * `ocp.connection.registered` (`agentId`: the peer, `hub`: the listener,
 * `supportedFeatures`, §7.2) → messages.
 *
 * Only the agents of `allowedPeers` register, each with the key the list
 * gives (peer-allow.ts); anyone else is refused with
 * `ocp.connection.refused` and close 4002 (`peer_not_allowed`,
 * `peer_key_mismatch`, `peer_already_connected`). Every message a peer
 * sends goes through the same inbound pipeline as at a hub (size, schema,
 * signature by the admitted key, freshness, replay, rate limits), `from`
 * must be the announced agent, and it is answered with `ocp.hub.ack` or
 * `ocp.hub.reject`. §8.5 applies as at a hub, with each peer's team from
 * the allow list: what the listening agent sends reaches a peer only when
 * the peer may see every node it carries, and the policy is the link's
 * `visibility`, so an agent on this link answers queries with only what
 * the asker may see. Lookups and §7.3 discovery queries are answered by
 * peer-control.ts.
 */

/**
 * §7.1 features a peer link confirms: every feature of the message layer's
 * {@link OCP_FEATURES} (the agent runtime does them all), the same list.
 */
export const PEER_FEATURES: typeof OCP_FEATURES = OCP_FEATURES;

export interface PeerListenerOptions {
  readonly identity: AgentIdentity;
  /** This agent's signed profile (created from `identity` when absent), served to lookups. */
  readonly profile?: AgentProfile;
  /**
   * Who may connect: allow-list entries (`{ id, publicKey, team? }` or signed
   * profiles), or `"any"` (every valid profile, first key pinned, no teams).
   * Required: absent (from JavaScript), nobody is admitted.
   */
  readonly allowedPeers: AllowedPeers;
  /** §8.5 what an absent `visibility` means (`workspace`, as at a hub, by default). */
  readonly defaultVisibility?: Visibility;
  /** Interface, `127.0.0.1` by default; port, a free one by default. */
  readonly host?: string;
  readonly port?: number;
  /** Per-peer rate limits, as a hub's (`false`: none). */
  readonly rateLimits?: RateLimitOptions | false;
  /** WebSocket limits (payload size, heartbeats, slow consumers). */
  readonly transport?: LimitOptions;
  /**
   * §3 audit log: what peers sent that was accepted or refused (with the
   * reason), registrations refused, and what was delivered to them; pruned
   * to its retention, closed with the listener. None by default.
   */
  readonly audit?: AuditLog;
}

/** A listening agent endpoint. */
export interface PeerListener {
  /** The `ws://` URL peers connect to (the card's `endpoints.websocket`). */
  readonly url: string;
  /** The link to give the listening {@link OCPAgent} (it carries {@link visibility}). */
  readonly link: AgentLink;
  /** §8.5 as this listener applies it: teams from the allow list (and this agent's own profile). */
  readonly visibility: VisibilityPolicy;
  /** Agent ids of the peers connected now. */
  peers(): string[];
  /** Admits another peer from now on (or replaces its entry); returns its id. */
  allow(peer: AllowedPeer): string;
  /** Stops admitting `agentId` and closes its connection (4002). */
  revoke(agentId: string): void;
  close(): Promise<void>;
}

interface Peer {
  readonly connection: Connection;
  readonly pipeline: InboundPipeline;
  chain: Promise<void>;
}

/** Longest announced id quoted in a refusal reason, characters. */
const QUOTED_ID_MAX = 200;

/** Serves `a2a-ocp-v1` for `options.identity`; give `listener.link` to its agent. */
export async function listenForPeers(options: PeerListenerOptions): Promise<PeerListener> {
  const { identity } = options;
  const profile = options.profile ?? createAgentProfile(identity, {}, nativeEd25519);
  const allowList = new PeerAllowList(identity.id, options.allowedPeers);
  const ownTeam: unknown = Reflect.get(profile, "team");
  const visibility: VisibilityPolicy = {
    teamOf: (id) =>
      id === identity.id
        ? typeof ownTeam === "string"
          ? ownTeam
          : undefined
        : allowList.teamOf(id),
    defaultVisibility: options.defaultVisibility ?? "workspace",
  };
  /** The latest profile each admitted peer announced. */
  const profiles = new Map<string, AgentProfile>();
  const lookupKey = (id: string) => (id === identity.id ? identity.publicKey : allowList.keyOf(id));
  const connected = new Map<string, Peer>();
  const handlers = new Set<(message: PlainMessage) => void>();
  const refusedHandlers = new Set<(error: OcpError) => void>();
  const audit = options.audit === undefined ? undefined : new PeerAudit(options.audit);
  const replay = new ReplayWindow({});
  // One limiter for all connections: a peer that reconnects keeps its buckets.
  const rateLimiter =
    options.rateLimits === false ? undefined : new RateLimiter(options.rateLimits ?? {});
  const self = { hub: { id: identity.id, publicKey: profile.publicKey, profile } };
  const control = new PeerControl({
    listenerId: identity.id,
    listenerProfile: profile,
    cards: () =>
      allowList.open
        ? profiles.values()
        : allowList
            .ids()
            .map((id) => profiles.get(id) ?? allowList.listedProfile(id))
            .filter((p): p is AgentProfile => p !== undefined),
    profileOf: (id) =>
      allowList.keyOf(id) === undefined
        ? undefined
        : (profiles.get(id) ?? allowList.listedProfile(id)),
    policy: visibility,
    now: Date.now,
  });
  const server = await createWsServer({
    ...options.transport,
    host: options.host ?? "127.0.0.1",
    port: options.port ?? 0,
    ackPayload: self,
    authenticate(announcement, nonce) {
      const verified = verifyAnnouncement(announcement, nonce, nativeEd25519);
      if (!verified.ok) return { refused: verified.error.message };
      const peer = verified.value.profile;
      const refuse = (code: string, why: string) => {
        audit?.registrationRefused(peer.id.slice(0, QUOTED_ID_MAX), identity.id, code, why);
        return { refused: `${code}: ${why}`, kind: "registration" as const };
      };
      const admitted = allowList.admit(peer.id, verified.value.publicKey);
      if (!admitted.ok) return refuse(admitted.refusal, admitted.why);
      if (connected.has(peer.id))
        return refuse("peer_already_connected", `${peer.id} is already connected`);
      const known = profiles.get(peer.id);
      if (known === undefined || known.issuedAt <= peer.issuedAt) profiles.set(peer.id, peer);
      return {
        agentId: peer.id,
        registration: { ...self, supportedFeatures: [...PEER_FEATURES] },
      };
    },
  });

  const reply = (peer: Peer, type: string, payload: Record<string, unknown>) =>
    peer.connection.send(encodeHubControl(type, payload));

  async function receive(agentId: string, peer: Peer, frame: string): Promise<void> {
    if (isHubFrame(frame)) {
      const answer = control.answer(agentId, frame);
      if (answer !== undefined) peer.connection.send(answer);
      return;
    }
    // §6.3 text framing: `<message>JSON</message>`.
    const raw = /^<message>([\s\S]*)<\/message>$/.exec(frame.trim())?.[1] ?? frame;
    const accepted = await peer.pipeline.accept(raw);
    if (!accepted.ok) {
      audit?.refused(agentId, raw, accepted.error.code, accepted.error.message);
      for (const handler of refusedHandlers) handler(accepted.error);
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
    // What a peer sends the listener is the peer's to share (§8.5 limits who else sees it:
    // everything the listener sends on passes `mayReceive`, in `link.send`).
    const forUs =
      to === BROADCAST || to === identity.id || (Array.isArray(to) && to.includes(identity.id));
    reply(peer, HUB_TYPES.ACK, { id: message.id, recipients: forUs ? 1 : 0, durable: false });
    // A sealed message is handed on as it came: the agent opens it (unsealing.ts).
    if (forUs) for (const handler of handlers) handler(message);
  }

  server.on("connection", (connection, info) => {
    const peer: Peer = {
      connection,
      pipeline: new InboundPipeline({
        lookupKey,
        ed25519: nativeEd25519,
        decompress: createDecompressor(), // §12.2, capped at MAX_DECOMPRESSED_BYTES
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
    lookupKey,
    visibility,
    async send(message) {
      const to = message["to"];
      const targets =
        to === BROADCAST ? [...connected.keys()] : typeof to === "string" ? [to] : (to as string[]);
      // §8.5 reads the payload a recipient gets: a compressed one inflated (§12.2).
      const payload = inflatedPayload(message);
      const nodes = accessControlledNodes(
        String(message["type"]),
        String(message["from"]),
        payload,
      );
      // §8.4 a sealed message: its declaration is checked as at a hub, then it goes to declared recipients only.
      const sealed =
        message["encrypted"] === true ? checkSealedEnvelope(message, visibility) : undefined;
      if (sealed !== undefined && !sealed.ok) throw sealed.error;
      const raw = JSON.stringify(message);
      let recipients = 0;
      let excluded = 0;
      for (const id of targets) {
        const peer = connected.get(id);
        if (peer === undefined) continue;
        if (
          !mayReceive(nodes, id, visibility) ||
          (sealed?.ok && !sealed.value.recipients.includes(id))
        ) {
          excluded += 1;
          continue;
        }
        const status = peer.connection.send(raw);
        if (status !== "closed") recipients += 1;
        if (status === "sent" || status === "queued") audit?.delivered(message, id);
      }
      if (recipients === 0 && excluded === 0 && to !== BROADCAST)
        throw agentError("not_connected", `no peer connection to ${String(to)}`);
      return { recipients, excluded };
    },
    // §8.4 the verified profiles peers announced: where this agent finds their encryption keys.
    findAgents: async (query) => {
      const agents = [...profiles.values()].filter((card) =>
        cardMatches(card, { queryId: "", ...query }),
      );
      return { agents, truncated: false, unverified: 0 };
    },
    onMessage(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    onRefused(handler) {
      refusedHandlers.add(handler);
      return () => refusedHandlers.delete(handler);
    },
    cards: async () => [...profiles.values()],
    async close() {
      await server.close(CLOSE_CODES.GOING_AWAY, "agent leaving");
      await audit?.close();
    },
  };
  return {
    url: server.url,
    link,
    visibility,
    peers: () => [...connected.keys()],
    allow(peer) {
      const id = allowList.allow(peer);
      const announced = profiles.get(id);
      const key = allowList.keyOf(id);
      if (
        announced !== undefined &&
        key !== undefined &&
        announced.publicKey !== Buffer.from(key).toString("base64")
      ) {
        profiles.delete(id);
        connected
          .get(id)
          ?.connection.close(CLOSE_CODES.REGISTRATION_REFUSED, "peer_key_mismatch: re-admitted");
      }
      return id;
    },
    revoke(agentId) {
      allowList.revoke(agentId);
      profiles.delete(agentId);
      control.forget(agentId);
      connected
        .get(agentId)
        ?.connection.close(CLOSE_CODES.REGISTRATION_REFUSED, "peer_not_allowed: revoked");
    },
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
