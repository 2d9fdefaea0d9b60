/**
 * The hub protocol: the small control vocabulary between a hub and its
 * agents, beside (never inside) the signed application messages. Every
 * control frame is JSON whose text starts with {@link HUB_FRAME_PREFIX}:
 * `{"protocol":"a2a+ocp","type":"ocp.hub.…`. No application message can
 * start that way, because `ocp.hub.*` is not a valid message type (the hub
 * refuses it at the schema stage), so one `startsWith` tells them apart.
 *
 * Agent → hub:
 * - `ocp.hub.announce` — the announcement, signed over the connection nonce.
 * - `ocp.hub.delivered {seq}` — every durable delivery up to `seq` arrived; the hub may forget it.
 * - `ocp.hub.lookup {agentId}` — asks for an agent's signed profile.
 * - `ocp.hub.discovery.query {queryId, protocols?, features?, workspace?, limit?}` — §7.3
 *   `findAgents`: asks for the signed cards (profiles) of the agents that match.
 *
 * Hub → agent:
 * - `ocp.hub.ack {id, durable, recipients, excluded?, expiresAt?}` — message `id` was accepted; for a
 *   durable one, committed. `expiresAt` (ISO 8601) is when the hub stops delivering it: its
 *   timestamp + ttl (or the hub's default) + the hub's clock-skew grace.
 * - `ocp.hub.reject {id?, code, message, details?}` — message `id` was refused, with an error code.
 * - `ocp.hub.profile {agentId, profile?, publicKey?}` — the answer to a lookup: the signed
 *   profile, or only the agent's key when its card is hidden from the asker (§8.5), or neither
 *   for an unknown id.
 * - `ocp.hub.discovery.result {queryId, cards, truncated}` — the answer to a discovery query:
 *   the matching cards the asking agent may see (§8.5 rules, as for knowledge; see discovery.ts).
 * - `ocp.hub.batch {count, lastSeq}` — the next `count` deliveries are a replay page in priority order.
 * - `ocp.hub.deliver` — a durable delivery: `{"protocol":"a2a+ocp","type":"ocp.hub.deliver","seq":N,"message":RAW}`
 *   where RAW is the exact text the sender sent (never re-serialised).
 *
 * Transient deliveries (broadcasts of non-durable types) are the sender's
 * exact text with no frame around it.
 */
import { z } from "zod";
import { AgentProfileSchema, PublicKeySchema } from "./identity.js";
import { DISCOVERY_MAX_CARDS, DISCOVERY_MAX_TERMS, TRACEPARENT_MAX_CHARS } from "./limits.js";
import { AgentUriSchema } from "./payloads/common.js";
import { PROTOCOL, PROTOCOL_VERSION } from "./version.js";

/** The text every hub control frame starts with. */
export const HUB_FRAME_PREFIX = `{"protocol":"${PROTOCOL}","type":"ocp.hub.`;

/** The text a durable delivery frame starts with, before its sequence number. */
export const DELIVER_PREFIX = `{"protocol":"${PROTOCOL}","type":"ocp.hub.deliver","seq":`;
const MESSAGE_KEY = `,"message":`;

export const HUB_TYPES = {
  ANNOUNCE: "ocp.hub.announce",
  DELIVERED: "ocp.hub.delivered",
  LOOKUP: "ocp.hub.lookup",
  ACK: "ocp.hub.ack",
  REJECT: "ocp.hub.reject",
  PROFILE: "ocp.hub.profile",
  DELIVER: "ocp.hub.deliver",
  SEND: "ocp.hub.send",
  BATCH: "ocp.hub.batch",
  DISCOVERY_QUERY: "ocp.hub.discovery.query",
  DISCOVERY_RESULT: "ocp.hub.discovery.result",
} as const;

const SeqSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/**
 * The announcement: the agent's signed profile, the connection nonce, the
 * last durable sequence number it received (to resume from), signed by the
 * profile's key over its canonical form (`signature` as for messages).
 */
export const HubAnnounceSchema = z.looseObject({
  protocol: z.literal(PROTOCOL),
  type: z.literal(HUB_TYPES.ANNOUNCE),
  version: z.string().min(1).max(32),
  payload: z.looseObject({
    profile: AgentProfileSchema,
    nonce: z.string().min(16).max(256),
    lastSeq: SeqSchema.optional(),
    /**
     * The agent understands `ocp.hub.batch`: the hub may replay stored
     * messages in §4.1 `priority` order (see {@link HubBatchSchema}).
     */
    ocpPriorityOrder: z.boolean().optional(),
    /** The agent reads and sends W3C trace contexts in hub frames (trace-context.ts). */
    ocpTrace: z.boolean().optional(),
  }),
  signature: z.string().min(1).max(256),
});
export type HubAnnounce = z.infer<typeof HubAnnounceSchema>;

export const HubDeliveredSchema = z.looseObject({
  protocol: z.literal(PROTOCOL),
  type: z.literal(HUB_TYPES.DELIVERED),
  payload: z.looseObject({ seq: SeqSchema }),
});

export const HubLookupSchema = z.looseObject({
  protocol: z.literal(PROTOCOL),
  type: z.literal(HUB_TYPES.LOOKUP),
  payload: z.looseObject({ agentId: AgentUriSchema }),
});

/**
 * `payload.hub` of `ocp.connection.ack` and `ocp.connection.registered`: the
 * identity of the party an agent connected to (a hub, or a listening agent):
 * its id, its Ed25519 key and its self-signed profile.
 */
export const HubIdentitySchema = z
  .looseObject({ id: z.string().min(1), publicKey: PublicKeySchema, profile: AgentProfileSchema })
  .meta({ id: "HubIdentity", description: "payload.hub: the hub's id, key and signed profile" });
export type HubIdentity = z.infer<typeof HubIdentitySchema>;

export const HubAckSchema = z.looseObject({
  protocol: z.literal(PROTOCOL),
  type: z.literal(HUB_TYPES.ACK),
  payload: z.looseObject({
    id: z.string(),
    /** Durable messages: the number of recipients it was committed for. */
    recipients: z.number().int().min(0),
    durable: z.boolean(),
    /** Recipients left out by §8.5 visibility (a hub sends it; a listening agent does not). */
    excluded: z.number().int().min(0).optional(),
    /**
     * When the hub stops delivering the message (ISO 8601): a durable one
     * stays in its store until then. Optional: hubs before it do not send it;
     * a malformed value reads as absent rather than losing the ack.
     */
    expiresAt: z.iso.datetime({ offset: true }).optional().catch(undefined),
  }),
});
export type HubAck = z.infer<typeof HubAckSchema>;

export const HubRejectSchema = z.looseObject({
  protocol: z.literal(PROTOCOL),
  type: z.literal(HUB_TYPES.REJECT),
  payload: z.looseObject({
    id: z.string().optional(),
    code: z.string().min(1),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type HubReject = z.infer<typeof HubRejectSchema>;

export const HubProfileSchema = z.looseObject({
  protocol: z.literal(PROTOCOL),
  type: z.literal(HUB_TYPES.PROFILE),
  payload: z.looseObject({
    agentId: z.string(),
    profile: z.unknown().optional(),
    /** The agent's Ed25519 key alone, when its card is hidden from the asker. */
    publicKey: PublicKeySchema.optional(),
  }),
});

/**
 * Announces a replay page sent in `priority` order (only to agents that
 * announced `ocpPriorityOrder`): the next `count` deliveries are the stored
 * messages up to `lastSeq` not yet sent, highest priority first. Their `seq`
 * numbers are then not increasing: the agent's resume point (`lastSeq` of its
 * announcement, `ocp.hub.delivered`) moves to `lastSeq` once all `count`
 * arrived, never before.
 */
export const HubBatchSchema = z.looseObject({
  protocol: z.literal(PROTOCOL),
  type: z.literal(HUB_TYPES.BATCH),
  payload: z.looseObject({ count: z.number().int().min(1), lastSeq: SeqSchema }),
});

const TermSchema = z.string().min(1).max(256);

/** §7.3 `findAgents` over the wire: every given criterion must match (see discovery.ts). */
export const DiscoveryQueryPayloadSchema = z.looseObject({
  /** Chosen by the asker; the result carries it back. */
  queryId: z.string().min(1).max(128),
  protocols: z.array(TermSchema).max(DISCOVERY_MAX_TERMS).optional(),
  features: z.array(TermSchema).max(DISCOVERY_MAX_TERMS).optional(),
  workspace: TermSchema.optional(),
  /** Most cards wanted (default and ceiling {@link DISCOVERY_MAX_CARDS}). */
  limit: z.number().int().min(1).max(DISCOVERY_MAX_CARDS).optional(),
});
export type DiscoveryQueryPayload = z.infer<typeof DiscoveryQueryPayloadSchema>;

export const HubDiscoveryQuerySchema = z.looseObject({
  protocol: z.literal(PROTOCOL),
  type: z.literal(HUB_TYPES.DISCOVERY_QUERY),
  payload: DiscoveryQueryPayloadSchema,
});

export const HubDiscoveryResultSchema = z.looseObject({
  protocol: z.literal(PROTOCOL),
  type: z.literal(HUB_TYPES.DISCOVERY_RESULT),
  payload: z.looseObject({
    queryId: z.string(),
    /** Signed agent profiles; a receiver verifies each (self-signature) before use. */
    cards: z.array(z.unknown()),
    /** More cards matched than were sent (the limit, or the frame's size). */
    truncated: z.boolean(),
  }),
});

/** Control frames an agent sends after registration. */
export const AgentControlSchema = z.discriminatedUnion("type", [
  HubDeliveredSchema,
  HubLookupSchema,
  HubDiscoveryQuerySchema,
]);
export type AgentControl = z.infer<typeof AgentControlSchema>;

/** Control frames a hub sends (deliveries are parsed by `parseDeliver`). */
export const HubControlSchema = z.discriminatedUnion("type", [
  HubAckSchema,
  HubRejectSchema,
  HubProfileSchema,
  HubBatchSchema,
  HubDiscoveryResultSchema,
]);
export type HubControl = z.infer<typeof HubControlSchema>;

/**
 * `ocp.hub.deliver`, as a schema for documentation (the generated JSON
 * Schema): receivers never parse it whole, the message being the sender's
 * exact text spliced in (see `parseDeliver`).
 */
export const HubDeliverSchema = z.looseObject({
  protocol: z.literal(PROTOCOL),
  type: z.literal(HUB_TYPES.DELIVER),
  seq: SeqSchema,
  /** The W3C trace context of the hub's delivery span; only to an agent that announced `ocpTrace`. */
  traceparent: z.string().max(TRACEPARENT_MAX_CHARS).optional(),
  /** The stored message, exactly as its sender sent it. */
  message: z.record(z.string(), z.unknown()),
});

/**
 * `ocp.hub.send`: a message with the W3C trace context of its sender's span
 * beside it (trace-context.ts), sent only once the hub confirmed `ocpTrace`.
 * The hub reads it by position, the message being the exact signed text.
 */
export const HubSendSchema = z.looseObject({
  protocol: z.literal(PROTOCOL),
  type: z.literal(HUB_TYPES.SEND),
  traceparent: z.string().max(TRACEPARENT_MAX_CHARS),
  message: z.record(z.string(), z.unknown()),
});

/** Every `ocp.hub.*` frame, either direction (what `schema/a2a-ocp-hub-frames.schema.json` holds). */
export const HubFrameSchema = z.discriminatedUnion("type", [
  HubAnnounceSchema,
  ...AgentControlSchema.options,
  ...HubControlSchema.options,
  HubDeliverSchema,
  HubSendSchema,
]);

/** The JSON text of a control frame (never an application message). */
export function encodeHubControl(type: string, payload: Record<string, unknown>): string {
  return `${HUB_FRAME_PREFIX}${type.slice("ocp.hub.".length)}","version":"${PROTOCOL_VERSION}","payload":${JSON.stringify(payload)}}`;
}

/** The delivery frame of a durable message: the raw text wrapped, not re-serialised. */
export function encodeDeliver(seq: number, raw: string): string {
  return `${DELIVER_PREFIX}${seq}${MESSAGE_KEY}${raw}}`;
}

/**
 * Splits a delivery frame into its sequence number and the exact message
 * text inside it; `undefined` when the frame is not a well-formed delivery.
 */
export function parseDeliver(frame: string): { seq: number; raw: string } | undefined {
  if (!frame.startsWith(DELIVER_PREFIX) || !frame.endsWith("}")) return undefined;
  const at = frame.indexOf(MESSAGE_KEY, DELIVER_PREFIX.length);
  if (at < 0) return undefined;
  const digits = frame.slice(DELIVER_PREFIX.length, at);
  if (!/^[0-9]{1,16}$/.test(digits)) return undefined;
  const seq = Number(digits);
  if (!Number.isSafeInteger(seq)) return undefined;
  return { seq, raw: frame.slice(at + MESSAGE_KEY.length, -1) };
}

/** Whether a text is a hub control (or delivery) frame rather than an application message. */
export function isHubFrame(text: string): boolean {
  return text.startsWith(HUB_FRAME_PREFIX);
}

/** Error codes the hub itself sends in `ocp.hub.reject`, beside the inbound pipeline's. */
export const HUB_ERROR_CODES = {
  sender_mismatch: "hub: the message's `from` is not the agent that authenticated the connection",
  recipient_unknown:
    "hub: the message is addressed to the hub itself and is not one it answers (only capability.announce; an event subscription addressed to the hub included), or a federated event names none of the hub's agents",
  hub_frame_invalid: "hub: a control frame is malformed or of an unknown type",
  feature_not_negotiated:
    "hub: after capability.announce, the message's §7.1 feature was not confirmed to the sender (§7.2)",
  recipient_limit:
    "hub: every named recipient is at a §7.1 limit it declared (maxConcurrentQueries, maxSubscriptions)",
  store_failed: "hub: the message could not be committed to the durable store",
  hub_closing: "hub: the hub is shutting down",
  hub_timeout: "client: the hub did not acknowledge in time",
  hub_backlog: "client: too many messages await the hub's ack",
  not_connected: "client: the client is closed",
} as const;
export type HubErrorCode = keyof typeof HUB_ERROR_CODES;
