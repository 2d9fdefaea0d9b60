/**
 * `@ocp/host`: the Open Context host. `Host` fans a query out to its
 * providers (in-process, stdio, HTTP) and `compose` packs the frames into a
 * prompt block; `ConsentStore` and `ReceiptLedger` keep consent, and
 * `auditAnswer` / `auditResult` check an answer against its frames. Every
 * limit is a member of `LIMITS`; the helpers the other packages share are at
 * `./internal`, which semver does not cover.
 */

export {
  type Audit,
  type AuditOptions,
  type AuditViolation,
  auditAnswer,
  auditResult,
  type CostViolation,
} from "./audit.js";
export {
  type Citation,
  type ComposeOptions,
  type Composition,
  compose,
  type DroppedFrame,
  type DropReason,
} from "./compose.js";
export type { Connected } from "./connect.js";
export {
  type ConsentGrant,
  type ConsentReceipt,
  type ConsentRevocation,
  ConsentStore,
} from "./consent.js";
export type { HostError, HostErrorCode } from "./errors.js";
export type { HostEventName, HostEvents, HostListener, ProviderTransport } from "./events.js";
export type {
  AcceptedFrame,
  CgpLiarViolation,
  FanOutResult,
  HeldAside,
  LegFailure,
  LegFailureReason,
  LegOutcome,
  Liar,
  ProviderUsage,
  SkippedProvider,
  Trim,
} from "./fanout.js";
export { Host } from "./host.js";
export type { LegOptions } from "./leg.js";
/**
 * Every limit of `@ocp/host`, by name (`LIMITS.NAME`): the finite defaults the
 * package enforces, each documented where it is defined (`src/limits.ts`) and
 * listed in the README's limits table. A module namespace: no member can be
 * reassigned and none added.
 */
export * as LIMITS from "./limits.js";
export type { HostOptions } from "./options.js";
export {
  type Grantor,
  ReceiptLedger,
  type ReceiptSubject,
  type ScopeGrant,
  type ScopeRecord,
  type ScopeRevocation,
} from "./receipts.js";
export type {
  AddOptions,
  ConsentState,
  ProviderListing,
  QueryCallOptions,
  ShutdownReport,
} from "./registry.js";
export type { DroppedHeld, ReuseDropReason, ReuseVerdict } from "./reuse.js";
export { type CgpSession, FAMILIES, type FamilyOptions, type RefusedOffer } from "./session.js";
export { countTokens } from "./tokens.js";
export type { HostTracing } from "./tracing.js";
