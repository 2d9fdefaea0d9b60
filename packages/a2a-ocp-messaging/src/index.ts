/**
 * `@ocp/a2a-ocp-messaging`: the a2a+ocp message layer. Build, sign, verify
 * and check messages (`createMessage`, `signObject`, `verifyMessage`,
 * `InboundPipeline`), identities and profiles, replay and rate-limit rules
 * and the visibility rules. Portable: no Node built-in
 * is imported here. The zod schemas are at `@ocp/a2a-ocp-messaging/schemas`;
 * native Ed25519, encryption, compression and key files at `./node`.
 *
 * Every limit is a member of `LIMITS`. Hub wire frames, authorship, sealed
 * envelopes, audit and signing helpers the other packages share are at
 * `./internal`, which semver does not cover.
 */

export { isOcpError, OcpError } from "@ocp/types";
export { type AuditEntry, type AuditLog, type AuditQuery, MemoryAuditLog } from "./audit.js";
export { canonicalize } from "./canonical.js";
export { decodeMessage } from "./decode.js";
export {
  BROADCAST,
  type CompressedMessage,
  type Compression,
  type CustomMessageType,
  type EncryptedMessage,
  KNOWN_MESSAGE_TYPES,
  type KnownMessageType,
  type MessageType,
  type Priority,
  type Recipients,
} from "./envelope.js";
export {
  MESSAGING_ERROR_CODES,
  type MessagingError,
  type MessagingErrorCode,
  type Result,
} from "./errors.js";
export { type EventSubscription, matchesEventType } from "./event-match.js";
export {
  type AgentIdentity,
  type AgentProfile,
  createAgentProfile,
  generateIdentity,
  identityFromSecretKey,
  keyLookupFromProfiles,
  verifyAgentProfile,
} from "./identity.js";
export {
  type AcceptedMessage,
  type Decryptor,
  type InboundErrorCode,
  type InboundOptions,
  InboundPipeline,
} from "./inbound.js";
/**
 * Every limit of `@ocp/a2a-ocp-messaging`, by name (`LIMITS.NAME`): the finite defaults the
 * package enforces, each documented where it is defined (`src/limits.ts`) and
 * listed in the README's limits table. A module namespace: no member can be
 * reassigned and none added.
 */
export * as LIMITS from "./limits.js";
export {
  type CustomMessage,
  createMessage,
  type KnownMessage,
  type MessageInit,
  type MessageOf,
  type PayloadInit,
  type PayloadOf,
  type PlainMessage,
  type WireMessage,
} from "./messages.js";
export type {
  AwarenessBeaconPayload,
  AwarenessQueryPayload,
  AwarenessResponsePayload,
  AwarenessUpdatePayload,
} from "./payloads/awareness.js";
export {
  type CapabilityAnnouncePayload,
  type CapabilityConfirmPayload,
  OCP_FEATURES,
  type OcpFeature,
} from "./payloads/capability.js";
export type {
  CollectiveQueryPayload,
  CollectiveResponsePayload,
  CollectiveSynthesisPayload,
  QueryFinding,
} from "./payloads/collective.js";
export type {
  ConsensusAchievedPayload,
  ConsensusProposePayload,
  ConsensusTimeoutPayload,
  ConsensusVotePayload,
  VoteCounts,
} from "./payloads/consensus.js";
export type {
  EventNotificationPayload,
  EventPublishPayload,
  EventSubscribePayload,
  EventUnsubscribePayload,
} from "./payloads/events.js";
export type {
  BatchedKnowledgeStreamPayload,
  KnowledgeConflictPayload,
  KnowledgeEdge,
  KnowledgeNode,
  KnowledgeStreamPayload,
  KnowledgeSubscribePayload,
  KnowledgeSyncRequestPayload,
  KnowledgeSyncResponsePayload,
  KnowledgeUnsubscribePayload,
  KnowledgeUpdatePayload,
  NodeUpdate,
  Visibility,
} from "./payloads/knowledge.js";
export type {
  SyncAcceptPayload,
  SyncCompletePayload,
  SyncConflictPayload,
  SyncOfferPayload,
  SyncRequestPayload,
} from "./payloads/sync.js";
export { RateLimiter, type RateLimitOptions } from "./rate-limit.js";
export { ReplayWindow } from "./replay.js";
export {
  type MessageDraft,
  type SignedMessage,
  type SignedMessageOptions,
  signedMessage,
} from "./signed-message.js";
export {
  type Ed25519Backend,
  type KeyLookup,
  signObject,
  verifyMessage,
  verifyMessageSync,
  verifyObject,
} from "./signing.js";
export { PROTOCOL, PROTOCOL_VERSION, versionsCompatible } from "./version.js";
export { mayReceive, maySee, type NodeAccess, type VisibilityPolicy } from "./visibility.js";
