/**
 * `@ocp/a2a-ocp-messaging/internal`: what the other packages of the OCP monorepo
 * share with this one and a user does not write against (wire plumbing,
 * helpers, the individual limit constants). Not covered by semver: any
 * release may change or remove a name here. Use the root entry.
 *
 * @packageDocumentation
 * @internal
 */

export { describeIssues } from "@ocp/types";
export {
  AUDIT_EVENTS,
  AUDIT_MEMORY_MAX_ENTRIES,
  AUDIT_QUERY_CAP,
  AUDIT_RETENTION_DEFAULT_MS,
  type AuditEventKind,
  assertAuditRetention,
  auditMatches,
  auditRecipients,
  auditTruncate,
  boundAuditEntry,
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
  type Item,
  itemSigner,
  itemSignerSync,
  signAuthorship,
} from "./authorship.js";
export { canonicalBytes, canonicalizeWithout, inCanonicalOrder } from "./canonical.js";
export { cardAccess, cardFeatures, cardMatches, cardProtocols } from "./discovery.js";
export { ed25519EncodingsAcceptable } from "./ed25519-rules.js";
export {
  COMPRESSIONS,
  CUSTOM_MESSAGE_TYPE_PATTERN,
  type EncryptedPayload,
  isCustomMessageType,
  PRIORITIES,
  type RecipientKey,
} from "./envelope.js";
export { fail, messagingError, ok } from "./errors.js";
export { matchesFilters } from "./event-match.js";
export { buildAnnouncement, type VerifiedAnnouncement, verifyAnnouncement } from "./hub-auth.js";
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
export { profilePublicKey } from "./identity.js";
export { type Decompressor, publicKeyFromBase64 } from "./inbound.js";
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
export { PAYLOAD_SCHEMAS, schemaFor } from "./messages.js";
export { AVAILABILITIES, AWARENESS_STATUSES } from "./payloads/awareness.js";
export { FEATURE_TYPE_PREFIXES, featureOfType } from "./payloads/capability.js";
export { AGENT_URI_PATTERN } from "./payloads/common.js";
export { type KnowledgeControlPayload, VISIBILITIES } from "./payloads/knowledge.js";
export type { RateLimitBucket } from "./rate-limit.js";
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
export {
  type EditedMessageOptions,
  type MessageSigner,
  type RuntimeMessageDraft,
  type SignedRecord,
  signedRuntimeMessage,
} from "./signed-message.js";
export {
  defaultEd25519,
  ED25519_PUBLIC_KEY_BYTES,
  ED25519_SECRET_KEY_BYTES,
  ED25519_SIGNATURE_BYTES,
  ed25519PublicKey,
  generateEd25519KeyPair,
  nobleEd25519,
  SIGNATURE_SCHEME,
  SIGNATURE_SCHEME_DOC,
  type SignatureCheckCode,
  SPEC_SIGNED_FIELDS,
  type SyncKeyLookup,
  schemeMismatchMessage,
  signedWithSpecFields,
  signingInput,
  specFieldsSigningInput,
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
export { SEMVER_PATTERN, semverMajor } from "./version.js";
export { ACCESS_FIELDS, accessControlledNodes, isPublicNode } from "./visibility.js";
