/**
 * `@ocp/a2a-ocp-messaging`: the a2a+ocp message layer. Build, sign, verify
 * and check messages (`createMessage`, `signObject`, `verifyMessage`,
 * `InboundPipeline`), identities and profiles, replay and rate-limit rules,
 * the hub's wire frames and the visibility rules. Portable: no Node built-in
 * is imported here. The zod schemas are at `@ocp/a2a-ocp-messaging/schemas`;
 * native Ed25519, encryption, compression and key files at `./node`.
 */

export {
  describeIssues,
  isOcpError,
  OcpError,
} from "@ocp/types";
export {
  AUDIT_EVENTS,
  AUDIT_MEMORY_MAX_ENTRIES,
  AUDIT_QUERY_CAP,
  AUDIT_RETENTION_DEFAULT_MS,
  type AuditEntry,
  type AuditEventKind,
  type AuditLog,
  type AuditQuery,
  assertAuditRetention,
  auditMatches,
  auditRecipients,
  auditTruncate,
  boundAuditEntry,
  MemoryAuditLog,
} from "./audit.js";
export {
  AUTHORSHIP_FIELD,
  type Authorship,
  AuthorshipSchema,
  authorOf,
  authorshipInput,
  checkItemClaimSync,
  claimAllowed,
  EDITORS_FIELD,
  editorsOf,
  itemSigner,
  itemSignerSync,
  signAuthorship,
} from "./authorship.js";
export {
  canonicalBytes,
  canonicalize,
  canonicalizeWithout,
  inCanonicalOrder,
} from "./canonical.js";
export { decodeMessage } from "./decode.js";
export { cardAccess, cardFeatures, cardMatches, cardProtocols } from "./discovery.js";
export { ed25519EncodingsAcceptable } from "./ed25519-rules.js";
export {
  BROADCAST,
  COMPRESSIONS,
  type CompressedMessage,
  type Compression,
  CUSTOM_MESSAGE_TYPE_PATTERN,
  type CustomMessageType,
  type EncryptedMessage,
  type EncryptedPayload,
  isCustomMessageType,
  KNOWN_MESSAGE_TYPES,
  type KnownMessageType,
  type MessageType,
  PRIORITIES,
  type Priority,
  type RecipientKey,
  type Recipients,
} from "./envelope.js";
export {
  fail,
  MESSAGING_ERROR_CODES,
  type MessagingError,
  type MessagingErrorCode,
  messagingError,
  ok,
  type Result,
} from "./errors.js";
export {
  type EventSubscription,
  matchesEventType,
  matchesFilters,
} from "./event-match.js";
export {
  buildAnnouncement,
  type VerifiedAnnouncement,
  verifyAnnouncement,
} from "./hub-auth.js";
export {
  type AgentControl,
  DELIVER_PREFIX,
  type DiscoveryQueryPayload,
  encodeDeliver,
  encodeHubControl,
  HUB_ERROR_CODES,
  HUB_FRAME_PREFIX,
  HUB_TYPES,
  type HubAck,
  type HubAnnounce,
  type HubControl,
  type HubErrorCode,
  type HubReject,
  isHubFrame,
  parseDeliver,
} from "./hub-protocol.js";
export {
  type AgentIdentity,
  type AgentProfile,
  createAgentProfile,
  generateIdentity,
  identityFromSecretKey,
  keyLookupFromProfiles,
  profilePublicKey,
  verifyAgentProfile,
} from "./identity.js";
export {
  type AcceptedMessage,
  type Decompressor,
  type Decryptor,
  type InboundErrorCode,
  type InboundOptions,
  InboundPipeline,
  publicKeyFromBase64,
} from "./inbound.js";
export { isJsonObject } from "./json.js";
export { MESSAGE_SCHEMA_ID } from "./json-schema.js";
export {
  AUDIT_MAX_AGENT_CHARS,
  AUDIT_MAX_CODE_CHARS,
  AUDIT_MAX_ID_CHARS,
  AUDIT_MAX_REASON_CHARS,
  AUDIT_MAX_RECIPIENTS,
  AUDIT_MAX_TYPE_CHARS,
  COMPRESSION_THRESHOLD_BYTES,
  DEFAULT_TTL_SECONDS,
  DISCOVERY_MAX_CARDS,
  DISCOVERY_MAX_TERMS,
  MAX_AGENT_URI_LENGTH,
  MAX_BATCH_ITEMS,
  MAX_CLOCK_SKEW_MS,
  MAX_DECOMPRESSED_BYTES,
  MAX_ID_LENGTH,
  MAX_JSON_DEPTH,
  MAX_MESSAGE_BYTES,
  MAX_MESSAGE_ID_LENGTH,
  MAX_MESSAGE_TYPE_LENGTH,
  MAX_RECIPIENTS,
  MAX_SEALED_ACCESS_ENTRIES,
  MAX_TTL_SECONDS,
  NATIVE_KEY_CACHE_MAX_ENTRIES,
  RATE_LIMIT_BROADCASTS_PER_MINUTE,
  RATE_LIMIT_COLLECTIVE_QUERIES_PER_MINUTE,
  RATE_LIMIT_MAX_SENDERS,
  RATE_LIMIT_MESSAGES_PER_MINUTE,
  RATE_LIMIT_WINDOW_MS,
  REPLAY_WINDOW_MAX_ENTRIES,
  TRACEPARENT_MAX_CHARS,
} from "./limits.js";
export {
  type CustomMessage,
  createMessage,
  type KnownMessage,
  type MessageInit,
  type MessageOf,
  PAYLOAD_SCHEMAS,
  type PayloadInit,
  type PayloadOf,
  type PlainMessage,
  schemaFor,
  type WireMessage,
} from "./messages.js";
export {
  AVAILABILITIES,
  AWARENESS_STATUSES,
  type AwarenessBeaconPayload,
  type AwarenessQueryPayload,
  type AwarenessResponsePayload,
  type AwarenessUpdatePayload,
} from "./payloads/awareness.js";
export {
  type CapabilityAnnouncePayload,
  type CapabilityConfirmPayload,
  FEATURE_TYPE_PREFIXES,
  featureOfType,
  OCP_FEATURES,
  type OcpFeature,
} from "./payloads/capability.js";
export type {
  CollectiveQueryPayload,
  CollectiveResponsePayload,
  CollectiveSynthesisPayload,
  QueryFinding,
} from "./payloads/collective.js";
export { AGENT_URI_PATTERN } from "./payloads/common.js";
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
export {
  type BatchedKnowledgeStreamPayload,
  type KnowledgeConflictPayload,
  type KnowledgeControlPayload,
  type KnowledgeEdge,
  type KnowledgeNode,
  type KnowledgeStreamPayload,
  type KnowledgeSubscribePayload,
  type KnowledgeSyncRequestPayload,
  type KnowledgeSyncResponsePayload,
  type KnowledgeUnsubscribePayload,
  type KnowledgeUpdatePayload,
  type NodeUpdate,
  VISIBILITIES,
  type Visibility,
} from "./payloads/knowledge.js";
export type {
  SyncAcceptPayload,
  SyncCompletePayload,
  SyncConflictPayload,
  SyncOfferPayload,
  SyncRequestPayload,
} from "./payloads/sync.js";
export {
  type RateLimitBucket,
  RateLimiter,
  type RateLimitOptions,
} from "./rate-limit.js";
export { ReplayWindow } from "./replay.js";
export {
  checkSealedEnvelope,
  type DeclaredAccess,
  SEALED_ENVELOPE_FIELD,
  type SealedEnvelope,
  SealedEnvelopeSchema,
  sameAccess,
  sealedAccessOf,
  sealedEnvelopeOf,
  sealedReaders,
} from "./sealed-envelope.js";
// One implementation per rule: the signature check (sync and async from one code) and the signing builder.
export {
  type EditedMessageOptions,
  type MessageDraft,
  type MessageSigner,
  type RuntimeMessageDraft,
  type SignedMessage,
  type SignedMessageOptions,
  type SignedRecord,
  signedMessage,
  signedRuntimeMessage,
} from "./signed-message.js";
export {
  defaultEd25519,
  ED25519_PUBLIC_KEY_BYTES,
  ED25519_SECRET_KEY_BYTES,
  ED25519_SIGNATURE_BYTES,
  type Ed25519Backend,
  ed25519PublicKey,
  generateEd25519KeyPair,
  type KeyLookup,
  nobleEd25519,
  SIGNATURE_SCHEME,
  SIGNATURE_SCHEME_DOC,
  type SignatureCheckCode,
  SPEC_SIGNED_FIELDS,
  type SyncKeyLookup,
  schemeMismatchMessage,
  signedWithSpecFields,
  signingInput,
  signObject,
  specFieldsSigningInput,
  verifyMessage,
  verifyMessageSync,
  verifyObject,
  withoutSignature,
} from "./signing.js";
export {
  type AdmitErrorCode,
  MessageStages,
  type ParsedMessage,
  type ParseErrorCode,
  type StageOptions,
} from "./stages.js";
export {
  encodeTracedDeliver,
  encodeTracedSend,
  formatTraceparent,
  parseTracedDeliver,
  parseTracedSend,
  parseTraceparent,
  TRACED_SEND_PREFIX,
  type TracedSend,
  type TraceParent,
} from "./trace-context.js";
export {
  PROTOCOL,
  PROTOCOL_VERSION,
  SEMVER_PATTERN,
  semverMajor,
  versionsCompatible,
} from "./version.js";
export {
  ACCESS_FIELDS,
  accessControlledNodes,
  isPublicNode,
  mayReceive,
  maySee,
  type NodeAccess,
  type VisibilityPolicy,
} from "./visibility.js";
