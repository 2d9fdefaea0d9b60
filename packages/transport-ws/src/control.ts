/**
 * The transport's control messages (§6.4 lifecycle), as zod schemas. They
 * follow the a2a+ocp message shape of §7.2 (`protocol`, `version`, `type`,
 * `payload`) with `type` in the reserved `ocp.connection.` namespace, and are
 * the only messages the transport reads: application messages pass through
 * as the raw text that arrived.
 */
import { parseJsonText } from "@ocp/types/internal";
import { z } from "zod";
import { CONTROL_PREFIX, CONTROL_TYPES, PROTOCOL, PROTOCOL_VERSION } from "./constants.js";

const envelope = <T extends string, P extends z.ZodType>(type: T, payload: P) =>
  z.looseObject({
    protocol: z.literal(PROTOCOL),
    version: z.string().min(1).max(32),
    type: z.literal(type),
    payload,
  });

/** Limits the server announces in its ack, so the client can stay within them. */
export const AckLimitsSchema = z.looseObject({
  maxPayloadBytes: z.number().int().positive(),
  maxBatchRecords: z.number().int().positive(),
  heartbeatIntervalMs: z.number().int().positive(),
  heartbeatTimeoutMs: z.number().int().positive(),
  handshakeTimeoutMs: z.number().int().positive(),
});
export type AckLimits = z.infer<typeof AckLimitsSchema>;

/** Server → client, first message: a fresh nonce the announcement must be signed over. */
export const ConnectionAckSchema = envelope(
  CONTROL_TYPES.ACK,
  z.looseObject({
    nonce: z.string().min(16).max(256),
    serverTime: z.string().min(1).max(64),
    limits: AckLimitsSchema,
  }),
);
export type ConnectionAck = z.infer<typeof ConnectionAckSchema>;

/** Server → client: the announcement was accepted; extra fields come from `authenticate`. */
export const ConnectionRegisteredSchema = envelope(
  CONTROL_TYPES.REGISTERED,
  z.looseObject({ agentId: z.string().min(1).max(2048) }),
);
export type ConnectionRegistered = z.infer<typeof ConnectionRegisteredSchema>;

/** Server → client: the announcement was refused; the server closes with `code` right after. */
export const ConnectionRefusedSchema = envelope(
  CONTROL_TYPES.REFUSED,
  z.looseObject({ reason: z.string().max(4096), code: z.number().int() }),
);
export type ConnectionRefused = z.infer<typeof ConnectionRefusedSchema>;

/**
 * Either side: a graceful disconnect notice; the sender closes with `code`
 * (1000 when absent) once its queue is flushed, and the receiver closes too.
 * `reason` and `code` are optional (a peer written from the specification
 * may send neither).
 */
export const ConnectionDisconnectSchema = envelope(
  CONTROL_TYPES.DISCONNECT,
  z.looseObject({ reason: z.string().max(4096).optional(), code: z.number().int().optional() }),
);
export type ConnectionDisconnect = z.infer<typeof ConnectionDisconnectSchema>;

export const ControlMessageSchema = z.discriminatedUnion("type", [
  ConnectionAckSchema,
  ConnectionRegisteredSchema,
  ConnectionRefusedSchema,
  ConnectionDisconnectSchema,
]);
export type ControlMessage = z.infer<typeof ControlMessageSchema>;

const KNOWN_TYPES: ReadonlySet<string> = new Set(Object.values(CONTROL_TYPES));

/** How an inbound message reads to the transport. */
export type Classified =
  /** An application message: passed on untouched. */
  | { kind: "application" }
  /** A control message the transport acts on. */
  | { kind: "control"; message: ControlMessage }
  /** A type in the reserved namespace this version does not know: dropped (forward-compatible). */
  | { kind: "unknown_control"; type: string }
  /** A known control type whose shape is wrong. */
  | { kind: "malformed_control"; type: string; issue: string };

/**
 * Classifies one inbound message. The fast path never parses: text that does
 * not contain the reserved prefix in quotes is an application message. Text
 * that does is parsed, and is a control message only if its top-level `type`
 * is in the reserved namespace; JSON validity of application messages is the
 * layer above's concern.
 */
export function classify(raw: string): Classified {
  if (!raw.includes(`"${CONTROL_PREFIX}`)) return { kind: "application" };
  // Not I-JSON (or not JSON): the layer above refuses it as an application message.
  const json = parseJsonText(raw);
  if (!json.ok) return { kind: "application" };
  const value = json.value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { kind: "application" };
  }
  const type = (value as { type?: unknown }).type;
  if (typeof type !== "string" || !type.startsWith(CONTROL_PREFIX)) return { kind: "application" };
  if (!KNOWN_TYPES.has(type)) return { kind: "unknown_control", type };
  const parsed = ControlMessageSchema.safeParse(value);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const issue = first ? `${first.path.join(".") || "(root)"}: ${first.message}` : "invalid";
    return { kind: "malformed_control", type, issue };
  }
  return { kind: "control", message: parsed.data };
}

type Payload<T extends ControlMessage["type"]> = Extract<ControlMessage, { type: T }>["payload"];

/** The JSON text of a control message of `type` with `payload`. */
export function encodeControl<T extends ControlMessage["type"]>(
  type: T,
  payload: Payload<T>,
): string {
  return JSON.stringify({ protocol: PROTOCOL, version: PROTOCOL_VERSION, type, payload });
}
