/**
 * `@ocp/host/internal`: what the other packages of the OCP monorepo
 * share with this one and a user does not write against (wire plumbing,
 * helpers, the individual limit constants). Not covered by semver: any
 * release may change or remove a name here. Use the root entry.
 *
 * @packageDocumentation
 * @internal
 */

export { describeViolations } from "./audit.js";
export type { CgpCallMembers } from "./cgp-leg.js";
export {
  COMPOSE_PREAMBLE,
  compareCandidates,
  type DroppedFrame,
  type DropReason,
  MIN_BLOCK_TOKENS,
} from "./compose.js";
export { ConsentReceiptSchema, parseConsentFile } from "./consent.js";
export {
  isProviderCrashCode,
  type NodeConnectionErrno,
  PROVIDER_CRASH_CODES,
  type ProviderCrashCode,
} from "./crash-codes.js";
export { hostError } from "./errors.js";
export { HostEventEmitter } from "./events.js";
export { type AcceptedFrame, type HeldAside, servesKinds, type Trim } from "./fanout.js";
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
export { runLeg } from "./leg.js";
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
export { checkFileDigest, type DigestCheck, type FileProvenanceLike } from "./provenance.js";
export {
  GrantorSchema,
  parseReceiptLedger,
  type ReceiptSubject,
  ScopeGrantSchema,
  ScopeRecordSchema,
  ScopeRevocationSchema,
} from "./receipts.js";
export type { DroppedHeld, ReuseDropReason, ReuseVerdict } from "./reuse.js";
export { refusesFamily } from "./session.js";
export { TOKENIZER } from "./tokens.js";
