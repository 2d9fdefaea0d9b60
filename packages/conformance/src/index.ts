export { type CgpHostCommand, runCgpHostConformance } from "./cgp/host-harness.js";
export { runCgpConformance } from "./cgp/run.js";
export type { CgpMessage, CgpQuery } from "./cgp/wire.js";
export type { ProbeVerdicts } from "./checks/frames.js";
export type { Parsed } from "./cli-args.js";
export {
  type FamilyChoice,
  type FamilyDecision,
  type FamilyRunOptions,
  runFamilyConformance,
} from "./family.js";
export type { CgpMisbehaveMode } from "./fixture/cgp-modes.js";
export type { FixtureMode } from "./fixture/dual.js";
export {
  createFixtureProvider,
  type FixtureAction,
  type HttpMisbehaveMode,
  type MisbehaveMode,
  type OcpFixtureMode,
} from "./fixture/provider.js";
export {
  type CheckedReport,
  EXIT_CODES,
  exitCodeOf,
  type FormatOptions,
  formatChecks,
  formatReport,
} from "./format.js";
export type { FencedSpan, HostFanOut, HostUnderTest } from "./host-adapter.js";
export { type HostRunOptions, runHostConformance } from "./host-harness.js";
export * as limits from "./limits.js";
export {
  type CgpIdentity,
  CHECKS,
  type CheckName,
  type CheckResult,
  type CheckSpec,
  type CheckStatus,
  type CheckTable,
  type ConformanceReport,
  type FrameSummary,
  HOST_CHECKS,
  isConformant,
  type NegotiatedIdentity,
  type ProbeSummary,
  type Tally,
} from "./report.js";
export { type RunOptions, runConformance } from "./run.js";
export type { Incoming, Recorded, Session, ShutdownOutcome } from "./session.js";
export type { HttpTarget, InProcessTarget, StdioTarget, Target, TransportKind } from "./targets.js";
