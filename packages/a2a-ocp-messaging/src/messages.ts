import { describeIssues } from "@ocp/types";
import { z } from "zod";
import { inCanonicalOrder } from "./canonical.js";
import {
  CompressedMessageSchema,
  type CustomMessageType,
  CustomMessageTypeSchema,
  EncryptedMessageSchema,
  envelopeFields,
  isCustomMessageType,
  type KnownMessageType,
  plainFields,
} from "./envelope.js";
import { messagingError } from "./errors.js";
import { isJsonObject } from "./json.js";
import { messageCandidate } from "./message-candidate.js";
import {
  AwarenessBeaconPayloadSchema,
  AwarenessQueryPayloadSchema,
  AwarenessResponsePayloadSchema,
  AwarenessUpdatePayloadSchema,
} from "./payloads/awareness.js";
import {
  CapabilityAnnouncePayloadSchema,
  CapabilityConfirmPayloadSchema,
} from "./payloads/capability.js";
import {
  CollectiveQueryPayloadSchema,
  CollectiveResponsePayloadSchema,
  CollectiveSynthesisPayloadSchema,
} from "./payloads/collective.js";
import { MetadataSchema } from "./payloads/common.js";
import {
  ConsensusAchievedPayloadSchema,
  ConsensusProposePayloadSchema,
  ConsensusTimeoutPayloadSchema,
  ConsensusVotePayloadSchema,
} from "./payloads/consensus.js";
import {
  EventNotificationPayloadSchema,
  EventPublishPayloadSchema,
  EventSubscribePayloadSchema,
  EventUnsubscribePayloadSchema,
} from "./payloads/events.js";
import {
  KnowledgeConflictPayloadSchema,
  KnowledgeControlPayloadSchema,
  KnowledgeStreamMessagePayloadSchema,
  KnowledgeSubscribePayloadSchema,
  KnowledgeSyncRequestPayloadSchema,
  KnowledgeSyncResponsePayloadSchema,
  KnowledgeUnsubscribePayloadSchema,
  KnowledgeUpdatePayloadSchema,
} from "./payloads/knowledge.js";
import {
  SyncAcceptPayloadSchema,
  SyncCompletePayloadSchema,
  SyncConflictPayloadSchema,
  SyncOfferPayloadSchema,
  SyncRequestPayloadSchema,
} from "./payloads/sync.js";
import { PROTOCOL_VERSION } from "./version.js";

/** The payload schema of every known message type: the type → payload map. */
export const PAYLOAD_SCHEMAS = {
  "ocp.knowledge.stream": KnowledgeStreamMessagePayloadSchema,
  "ocp.knowledge.subscribe": KnowledgeSubscribePayloadSchema,
  "ocp.knowledge.unsubscribe": KnowledgeUnsubscribePayloadSchema,
  "ocp.knowledge.sync.request": KnowledgeSyncRequestPayloadSchema,
  "ocp.knowledge.sync.response": KnowledgeSyncResponsePayloadSchema,
  "ocp.knowledge.update": KnowledgeUpdatePayloadSchema,
  "ocp.knowledge.conflict": KnowledgeConflictPayloadSchema,
  "ocp.knowledge.control": KnowledgeControlPayloadSchema,
  "ocp.collective.query": CollectiveQueryPayloadSchema,
  "ocp.collective.response": CollectiveResponsePayloadSchema,
  "ocp.collective.synthesis": CollectiveSynthesisPayloadSchema,
  "ocp.consensus.propose": ConsensusProposePayloadSchema,
  "ocp.consensus.vote": ConsensusVotePayloadSchema,
  "ocp.consensus.achieved": ConsensusAchievedPayloadSchema,
  "ocp.consensus.timeout": ConsensusTimeoutPayloadSchema,
  "ocp.awareness.beacon": AwarenessBeaconPayloadSchema,
  "ocp.awareness.update": AwarenessUpdatePayloadSchema,
  "ocp.awareness.query": AwarenessQueryPayloadSchema,
  "ocp.awareness.response": AwarenessResponsePayloadSchema,
  "ocp.event.publish": EventPublishPayloadSchema,
  "ocp.event.subscribe": EventSubscribePayloadSchema,
  "ocp.event.unsubscribe": EventUnsubscribePayloadSchema,
  "ocp.event.notification": EventNotificationPayloadSchema,
  "ocp.sync.request": SyncRequestPayloadSchema,
  "ocp.sync.offer": SyncOfferPayloadSchema,
  "ocp.sync.accept": SyncAcceptPayloadSchema,
  "ocp.sync.complete": SyncCompletePayloadSchema,
  "ocp.sync.conflict": SyncConflictPayloadSchema,
  "capability.announce": CapabilityAnnouncePayloadSchema,
  "capability.confirm": CapabilityConfirmPayloadSchema,
} as const satisfies Record<KnownMessageType, z.ZodType>;

/** §11.1 the payload of an `ocp.custom.*` message: any JSON object. */
export const CustomPayloadSchema = MetadataSchema;

/** The payload (as decoded) of a message type. */
export type PayloadOf<T extends KnownMessageType | CustomMessageType> = T extends KnownMessageType
  ? z.output<(typeof PAYLOAD_SCHEMAS)[T]>
  : z.output<typeof CustomPayloadSchema>;

/** The payload (as a builder accepts it) of a message type. */
export type PayloadInit<T extends KnownMessageType | CustomMessageType> = T extends KnownMessageType
  ? z.input<(typeof PAYLOAD_SCHEMAS)[T]>
  : z.input<typeof CustomPayloadSchema>;

function plainVariant<T extends KnownMessageType>(type: T) {
  return z.looseObject({
    ...envelopeFields,
    ...plainFields,
    type: z.literal(type),
    payload: PAYLOAD_SCHEMAS[type] as (typeof PAYLOAD_SCHEMAS)[T],
  });
}

/** A plain message of a known type, discriminated by `type`. */
export const KnownMessageSchema = z.discriminatedUnion("type", [
  plainVariant("ocp.knowledge.stream"),
  plainVariant("ocp.knowledge.subscribe"),
  plainVariant("ocp.knowledge.unsubscribe"),
  plainVariant("ocp.knowledge.sync.request"),
  plainVariant("ocp.knowledge.sync.response"),
  plainVariant("ocp.knowledge.update"),
  plainVariant("ocp.knowledge.conflict"),
  plainVariant("ocp.knowledge.control"),
  plainVariant("ocp.collective.query"),
  plainVariant("ocp.collective.response"),
  plainVariant("ocp.collective.synthesis"),
  plainVariant("ocp.consensus.propose"),
  plainVariant("ocp.consensus.vote"),
  plainVariant("ocp.consensus.achieved"),
  plainVariant("ocp.consensus.timeout"),
  plainVariant("ocp.awareness.beacon"),
  plainVariant("ocp.awareness.update"),
  plainVariant("ocp.awareness.query"),
  plainVariant("ocp.awareness.response"),
  plainVariant("ocp.event.publish"),
  plainVariant("ocp.event.subscribe"),
  plainVariant("ocp.event.unsubscribe"),
  plainVariant("ocp.event.notification"),
  plainVariant("ocp.sync.request"),
  plainVariant("ocp.sync.offer"),
  plainVariant("ocp.sync.accept"),
  plainVariant("ocp.sync.complete"),
  plainVariant("ocp.sync.conflict"),
  plainVariant("capability.announce"),
  plainVariant("capability.confirm"),
]);
export type KnownMessage = z.infer<typeof KnownMessageSchema>;

/** §11.1 a plain `ocp.custom.*` message. */
export const CustomMessageSchema = z
  .looseObject({
    ...envelopeFields,
    ...plainFields,
    type: CustomMessageTypeSchema,
    payload: CustomPayloadSchema,
  })
  .meta({ id: "CustomMessage", description: "§11.1 a message of an ocp.custom.* type." });
export type CustomMessage = z.infer<typeof CustomMessageSchema> & { type: CustomMessageType };

/** A plain message: its payload is readable and typed by `type`. */
export type PlainMessage = KnownMessage | CustomMessage;

/** The plain message of one type. */
export type MessageOf<T extends KnownMessageType | CustomMessageType> = T extends KnownMessageType
  ? Extract<KnownMessage, { type: T }>
  : CustomMessage;

/**
 * Any a2a+ocp message as it travels: plain (known or custom type), encrypted
 * (§8.4) or compressed (§12.2). The four forms exclude each other. This is
 * the schema `schema/a2a-ocp-message.schema.json` is generated from.
 */
export const WireMessageSchema = z
  .union([KnownMessageSchema, CustomMessageSchema, EncryptedMessageSchema, CompressedMessageSchema])
  .meta({ id: "A2aOcpMessage", description: "An a2a+ocp 1.x message (§4.1)." });
export type WireMessage =
  | PlainMessage
  | z.infer<typeof EncryptedMessageSchema>
  | z.infer<typeof CompressedMessageSchema>;

/**
 * The schema that applies to `value`, chosen by its form and type, so that a
 * decode reports the issues of the one form the sender meant rather than a
 * union of all of them. Agrees with {@link WireMessageSchema} by construction:
 * the forms are mutually exclusive.
 */
export function schemaFor(value: unknown): z.ZodType {
  if (!isJsonObject(value)) return KnownMessageSchema;
  const record = value;
  if (record["encrypted"] === true) return EncryptedMessageSchema;
  if (record["compressedPayload"] !== undefined || record["compression"] !== undefined) {
    return CompressedMessageSchema;
  }
  const type = record["type"];
  if (typeof type === "string" && isCustomMessageType(type)) return CustomMessageSchema;
  return KnownMessageSchema;
}

/** The envelope fields a builder takes; the rest are filled in. */
export interface MessageInit<T extends KnownMessageType | CustomMessageType> {
  type: T;
  from: string;
  to: string | string[];
  payload: PayloadInit<T>;
  /** Defaults to a fresh UUID v4. */
  id?: string;
  /** Defaults to now, ISO 8601 UTC. */
  timestamp?: string;
  /** Defaults to {@link PROTOCOL_VERSION}. */
  version?: string;
  ttl?: number;
  correlation_id?: string;
  reply_to?: string;
  priority?: "low" | "normal" | "high" | "urgent";
}

/**
 * Builds a plain, unsigned message whose payload type follows from its
 * `type`, and validates it: an invalid message is never built (throws an
 * `invalid_message` error).
 */
export function createMessage<T extends KnownMessageType | CustomMessageType>(
  init: MessageInit<T>,
): MessageOf<T> {
  return buildMessage(init) as MessageOf<T>;
}

/** {@link MessageInit} for a type known only at run time: checked by its type's schema when built. */
export type RuntimeMessageInit = Omit<MessageInit<never>, "type" | "payload"> & {
  type: string;
  payload: unknown;
};

/**
 * {@link createMessage} for a type known only at run time (a conformance
 * suite's tables, a fixture answering what it read): the same checks, and
 * the result is a {@link PlainMessage} because its schema accepted it.
 */
export function buildMessage(init: RuntimeMessageInit): PlainMessage {
  const candidate = messageCandidate(init);
  const parsed = schemaFor(candidate).safeParse(candidate);
  if (!parsed.success) {
    throw messagingError(
      "invalid_message",
      `cannot build ${init.type}: ${describeIssues(parsed.error)}`,
      {
        details: { issues: parsed.error.issues },
      },
    );
  }
  // Members in JCS order: signing and verifying it then copy nothing (and the wire form is canonical).
  return inCanonicalOrder(parsed.data) as PlainMessage;
}
