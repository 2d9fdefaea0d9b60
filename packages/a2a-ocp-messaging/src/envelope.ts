import { z } from "zod";
import {
  MAX_AGENT_URI_LENGTH,
  MAX_MESSAGE_TYPE_LENGTH,
  MAX_RECIPIENTS,
  MAX_TTL_SECONDS,
} from "./limits.js";
import { AgentUriSchema, IdSchema, TimestampSchema } from "./payloads/common.js";
import { PROTOCOL, SEMVER_PATTERN } from "./version.js";
import {
  BASE64_PATTERN,
  BROADCAST,
  COMPRESSIONS,
  CUSTOM_MESSAGE_TYPE_PATTERN,
  type CustomMessageType,
  KNOWN_MESSAGE_TYPES,
  MESSAGE_ID_PATTERN,
  PRIORITIES,
  SIGNATURE_PATTERN,
} from "./wire-patterns.js";

// The patterns and name lists, without zod (the browser entry reads them too), re-exported here.
export {
  BASE64_PATTERN,
  BROADCAST,
  COMPRESSIONS,
  CUSTOM_MESSAGE_TYPE_PATTERN,
  type CustomMessageType,
  isCustomMessageType,
  KNOWN_MESSAGE_TYPES,
  MESSAGE_ID_PATTERN,
  PRIORITIES,
  SIGNATURE_PATTERN,
} from "./wire-patterns.js";

/**
 * The §4.1 envelope. Field names are the wire's: snake_case for the envelope
 * (`correlation_id`, `reply_to`), camelCase inside payloads (§5). Unknown
 * envelope fields are tolerated (a newer minor version may add some) and kept,
 * so the signature, computed over the received JSON, covers them too.
 */

export const KnownMessageTypeSchema = z.enum(KNOWN_MESSAGE_TYPES);
export type KnownMessageType = z.infer<typeof KnownMessageTypeSchema>;

export const CustomMessageTypeSchema = z
  .string()
  .max(MAX_MESSAGE_TYPE_LENGTH)
  .regex(CUSTOM_MESSAGE_TYPE_PATTERN, "custom types must use the ocp.custom.* namespace")
  .meta({ id: "CustomMessageType", description: "§11.1 ocp.custom.<name>" });

/** Any message type: a known one or an `ocp.custom.*` one. */
export const MessageTypeSchema = z.union([KnownMessageTypeSchema, CustomMessageTypeSchema]);
export type MessageType = KnownMessageType | CustomMessageType;

export const PrioritySchema = z
  .enum(PRIORITIES)
  .meta({ id: "Priority", description: "§4.1 MessagePriority." });
export type Priority = z.infer<typeof PrioritySchema>;

/** §4.1 `to`: one agent, a list of agents, or `"broadcast"`. */
export const RecipientsSchema = z
  .union([z.literal(BROADCAST), AgentUriSchema, z.array(AgentUriSchema).min(1).max(MAX_RECIPIENTS)])
  .meta({
    id: "Recipients",
    description: 'One agent URI, a non-empty list of them, or "broadcast".',
  });
export type Recipients = z.infer<typeof RecipientsSchema>;

export const Base64Schema = z.string().regex(BASE64_PATTERN, "must be padded base64");

/** An Ed25519 signature: 64 bytes, base64. */
export const SignatureSchema = z
  .string()
  .regex(SIGNATURE_PATTERN, "must be a base64 Ed25519 signature (64 bytes)")
  .meta({ id: "Signature", description: "Ed25519 signature (64 bytes), base64." });

/** The fields every message shares, whatever its type and form. */
export const envelopeFields = {
  protocol: z.literal(PROTOCOL),
  version: z
    .string()
    .regex(SEMVER_PATTERN, "must be a semantic version")
    .meta({ id: "Version", description: "Semantic version; same major = compatible." }),
  id: z.string().regex(MESSAGE_ID_PATTERN, "must be 1-128 visible ASCII characters").meta({
    id: "MessageId",
    description:
      "Unique per message: 1-128 visible ASCII characters (we send UUID v4; the specification's examples use ids such as msg-abc123).",
  }),
  from: AgentUriSchema,
  to: RecipientsSchema,
  timestamp: TimestampSchema,
  /** Seconds the message stays valid after `timestamp`. */
  ttl: z.number().int().min(1).max(MAX_TTL_SECONDS).optional(),
  correlation_id: IdSchema.optional(),
  reply_to: z.string().min(1).max(MAX_AGENT_URI_LENGTH).optional(),
  priority: PrioritySchema.optional(),
  signature: SignatureSchema.optional(),
};

/** Marks a plain (neither encrypted nor compressed) message. */
export const plainFields = {
  encrypted: z.literal(false).optional(),
  compression: z.never().optional(),
  compressedPayload: z.never().optional(),
};

export const CompressionSchema = z.enum(COMPRESSIONS);
export type Compression = z.infer<typeof CompressionSchema>;

/** §8.4 one recipient's wrapped content key. */
export const RecipientKeySchema = z
  .looseObject({ agentId: AgentUriSchema, encryptedKey: Base64Schema.min(4) })
  .meta({ id: "RecipientKey", description: "§8.4 a content key wrapped for one recipient." });
export type RecipientKey = z.infer<typeof RecipientKeySchema>;

/** §8.4 the payload of an encrypted message. */
export const EncryptedPayloadSchema = z
  .looseObject({
    ciphertext: Base64Schema.min(4),
    algorithm: z.literal("AES-256-GCM"),
    recipientKeys: z.array(RecipientKeySchema).min(1).max(MAX_RECIPIENTS),
  })
  .refine((p) => new Set(p.recipientKeys.map((k) => k.agentId)).size === p.recipientKeys.length, {
    message: "each recipient appears once in recipientKeys",
    path: ["recipientKeys"],
  })
  .meta({ id: "EncryptedPayload", description: "§8.4 an AES-256-GCM payload with wrapped keys." });
export type EncryptedPayload = z.infer<typeof EncryptedPayloadSchema>;

/**
 * §8.4 an encrypted message: any type, `encrypted: true`, an
 * {@link EncryptedPayloadSchema} payload. Not combined with compression.
 */
export const EncryptedMessageSchema = z
  .looseObject({
    ...envelopeFields,
    type: MessageTypeSchema,
    encrypted: z.literal(true),
    payload: EncryptedPayloadSchema,
    compression: z.never().optional(),
    compressedPayload: z.never().optional(),
  })
  .meta({ id: "EncryptedMessage", description: "§8.4 a message whose payload is encrypted." });
export type EncryptedMessage = z.infer<typeof EncryptedMessageSchema>;

/**
 * §12.2 a compressed message: `compression` names the algorithm and
 * `compressedPayload` holds the base64 of the compressed JSON payload, which
 * takes the place of `payload`.
 */
export const CompressedMessageSchema = z
  .looseObject({
    ...envelopeFields,
    type: MessageTypeSchema,
    encrypted: z.literal(false).optional(),
    compression: CompressionSchema,
    compressedPayload: Base64Schema,
    payload: z.never().optional(),
  })
  .meta({ id: "CompressedMessage", description: "§12.2 a message whose payload is compressed." });
export type CompressedMessage = z.infer<typeof CompressedMessageSchema>;
