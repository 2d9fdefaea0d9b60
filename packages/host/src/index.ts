export {
  type Audit,
  type AuditOptions,
  type AuditViolation,
  auditAnswer,
  auditResult,
  type CostViolation,
  describeViolations,
} from "./audit.js";
export type { CgpCallMembers } from "./cgp-leg.js";
export {
  type Citation,
  COMPOSE_PREAMBLE,
  type ComposeOptions,
  type Composition,
  compareCandidates,
  compose,
  type DroppedFrame,
  type DropReason,
  MIN_BLOCK_TOKENS,
} from "./compose.js";
export {
  type ConsentGrant,
  type ConsentReceipt,
  ConsentReceiptSchema,
  type ConsentRevocation,
  ConsentStore,
  parseConsentFile,
} from "./consent.js";
export {
  isProviderCrashCode,
  type NodeConnectionErrno,
  PROVIDER_CRASH_CODES,
  type ProviderCrashCode,
} from "./crash-codes.js";
export { type HostError, type HostErrorCode, hostError } from "./errors.js";
export {
  HostEventEmitter,
  type HostEventName,
  type HostEvents,
  type HostListener,
  type ProviderTransport,
} from "./events.js";
export {
  type AcceptedFrame,
  type CgpLiarViolation,
  type FanOutResult,
  type HeldAside,
  type LegFailure,
  type LegFailureReason,
  type LegOutcome,
  type Liar,
  type ProviderUsage,
  type SkippedProvider,
  servesKinds,
  type Trim,
} from "./fanout.js";
export {
  attribute,
  citationOf,
  closeMarker,
  digestOf,
  FENCE_CLOSE,
  FENCE_OPEN,
  fenceFrame,
  neutralise,
  openMarker,
  SHORT_DIGEST_HEX,
  shortDigest,
} from "./fence.js";
export { Host } from "./host.js";
export { type LegOptions, runLeg } from "./leg.js";
export {
  COST_TOLERANCE_RATIO,
  COST_TOLERANCE_SLACK,
  DEFAULT_COMPOSE_MAX_FRAMES,
  DEFAULT_COMPOSE_MAX_TOKENS,
  DEFAULT_LEG_TIMEOUT_MS,
  DEFAULT_SHUTDOWN_TIMEOUT_MS,
  MAX_COMPOSE_CANDIDATES,
  MAX_CONSENT_FILE_BYTES,
  MAX_CONSENT_TEXT_LENGTH,
  MAX_LEG_TIMEOUT_MS,
  MAX_PROVENANCE_FILE_BYTES,
  MAX_PROVIDER_ID_LENGTH,
  MAX_PROVIDERS,
  MAX_PROVIDERS_CEILING,
} from "./limits.js";
export type { HostOptions } from "./options.js";
export { checkFileDigest, type DigestCheck, type FileProvenanceLike } from "./provenance.js";
export {
  type Grantor,
  GrantorSchema,
  parseReceiptLedger,
  ReceiptLedger,
  type ReceiptSubject,
  type ScopeGrant,
  ScopeGrantSchema,
  type ScopeRecord,
  ScopeRecordSchema,
  type ScopeRevocation,
  ScopeRevocationSchema,
} from "./receipts.js";
export type {
  AddOptions,
  ConsentState,
  ProviderListing,
  QueryCallOptions,
  ShutdownReport,
} from "./registry.js";
export type { DroppedHeld, ReuseDropReason, ReuseVerdict } from "./reuse.js";
export {
  type CgpSession,
  FAMILIES,
  type FamilyOptions,
  type RefusedOffer,
  refusesFamily,
} from "./session.js";
export { countTokens, TOKENIZER } from "./tokens.js";
