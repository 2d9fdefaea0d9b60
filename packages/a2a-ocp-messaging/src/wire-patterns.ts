import { MAX_MESSAGE_ID_LENGTH, MAX_MESSAGE_TYPE_LENGTH } from "./limits.js";

/**
 * The patterns and name lists of the wire, without zod: the schemas
 * (`envelope.ts`, `payloads/common.ts`) are built from them, and code that
 * must stay small (the browser entry, base64, rate limits) reads them here.
 */

/** Grammar of an agent URI: `a2a://` then URI characters, no whitespace. */
export const AGENT_URI_PATTERN: RegExp = /^a2a:\/\/[A-Za-z0-9._~%!$&'()*+,;=:@/-]+$/;

/**
 * A message `id` (§4.1): 1 to {@link MAX_MESSAGE_ID_LENGTH} visible ASCII
 * characters (no space, no control character), so it is safe in a log line,
 * a SQLite key and a NATS header. Ids are unique hub-wide within the replay
 * window, whoever sends them: a reused id is refused `replay_detected`.
 */
export const MESSAGE_ID_PATTERN: RegExp = new RegExp(`^[\\x21-\\x7e]{1,${MAX_MESSAGE_ID_LENGTH}}$`);

/** §4.2 every standard message type, plus §7.2 negotiation and §12.4 backpressure. */
export const KNOWN_MESSAGE_TYPES = [
  "ocp.knowledge.stream",
  "ocp.knowledge.subscribe",
  "ocp.knowledge.unsubscribe",
  "ocp.knowledge.sync.request",
  "ocp.knowledge.sync.response",
  "ocp.knowledge.update",
  "ocp.knowledge.conflict",
  "ocp.knowledge.control",
  "ocp.collective.query",
  "ocp.collective.response",
  "ocp.collective.synthesis",
  "ocp.consensus.propose",
  "ocp.consensus.vote",
  "ocp.consensus.achieved",
  "ocp.consensus.timeout",
  "ocp.awareness.beacon",
  "ocp.awareness.update",
  "ocp.awareness.query",
  "ocp.awareness.response",
  "ocp.event.publish",
  "ocp.event.subscribe",
  "ocp.event.unsubscribe",
  "ocp.event.notification",
  "ocp.sync.request",
  "ocp.sync.offer",
  "ocp.sync.accept",
  "ocp.sync.complete",
  "ocp.sync.conflict",
  "capability.announce",
  "capability.confirm",
] as const;

/** §11.1 organization-defined types live under `ocp.custom.*`. */
export const CUSTOM_MESSAGE_TYPE_PATTERN: RegExp =
  /^ocp\.custom\.[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;

/** An organization-defined message type (§11.1). */
export type CustomMessageType = `ocp.custom.${string}`;

/** Whether `type` names an `ocp.custom.*` type. */
export function isCustomMessageType(type: string): type is CustomMessageType {
  return type.length <= MAX_MESSAGE_TYPE_LENGTH && CUSTOM_MESSAGE_TYPE_PATTERN.test(type);
}

/** §4.1 MessagePriority. */
export const PRIORITIES = ["low", "normal", "high", "urgent"] as const;

/** The `to` value that addresses every agent. */
export const BROADCAST = "broadcast";

/** Standard base64 (RFC 4648 §4) with padding. */
export const BASE64_PATTERN: RegExp =
  /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The form of an Ed25519 signature: 64 bytes, base64. */
export const SIGNATURE_PATTERN: RegExp = /^[A-Za-z0-9+/]{86}==$/;

/** §12.2 the compression algorithms. */
export const COMPRESSIONS = ["gzip", "brotli"] as const;
