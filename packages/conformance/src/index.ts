export {
  type CgpHostCommand,
  cgpFencedSpans,
  runCgpHostConformance,
} from "./cgp/host-harness.js";
export {
  BUDGET_RULES,
  judgeAsOf,
  judgeCgpHandshake,
  judgeCgpProbe,
  judgeConsentScope,
} from "./cgp/judge.js";
export { CGP_FOREIGN_VERSION, CGP_MALFORMED_INPUTS } from "./cgp/probes.js";
export { runCgpConformance } from "./cgp/run.js";
export { mutatedDigest, VERIFY_PROVIDER_ID } from "./cgp/verify.js";
export { AS_OF_PIN, type CgpMessage, type CgpQuery, cgpProbeQuery, readCgp } from "./cgp/wire.js";
export { checkCorrelation } from "./checks/correlation.js";
export { judgeKinds, judgeMaxFrames, MAX_FRAMES_PROBE, pickKind } from "./checks/filters.js";
export {
  countContentTokens,
  judgeCosts,
  judgeProbe,
  type ProbeVerdicts,
  TOKENIZER,
} from "./checks/frames.js";
export { FOREIGN_VERSION, judgeHandshake, judgeVersionMismatch } from "./checks/handshake.js";
export { checkMalformed, MALFORMED_INPUTS } from "./checks/malformed.js";
export { judgeSchema, schemaErrors } from "./checks/schema.js";
export { judgeShutdown } from "./checks/shutdown.js";
export { type Parsed, parseArgs, USAGE } from "./cli-args.js";
export {
  chooseFamily,
  FAMILY_CHOICES,
  type FamilyChoice,
  type FamilyDecision,
  type FamilyRunOptions,
  runFamilyConformance,
} from "./family.js";
export { CgpFixtureLogic, FIXTURE_FINGERPRINT } from "./fixture/cgp.js";
export {
  CGP_MISBEHAVE_MODES,
  type CgpMisbehaveMode,
  isCgpMisbehaveMode,
} from "./fixture/cgp-modes.js";
export { DualFixture, type FixtureMode } from "./fixture/dual.js";
export {
  createFixtureProvider,
  type FixtureAction,
  FixtureLogic,
  HTTP_MISBEHAVE_MODES,
  type HttpMisbehaveMode,
  isHttpMisbehaveMode,
  isMisbehaveMode,
  MISBEHAVE_MODES,
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
export {
  type FencedSpan,
  type HostFanOut,
  type HostUnderTest,
  ocpHostFencedSpans,
  ourHost,
} from "./host-adapter.js";
export { fixtureCommand, type HostRunOptions, runHostConformance } from "./host-harness.js";
export * as limits from "./limits.js";
export {
  CGP_CHECK_SPECS,
  CGP_HOST_CHECK_SPECS,
  CGP_HOST_CHECKS,
  CGP_ONLY_CHECKS,
  type CgpIdentity,
  CHECK_SPECS,
  CHECKS,
  type CheckName,
  type CheckResult,
  type CheckSpec,
  type CheckStatus,
  type CheckTable,
  type ConformanceReport,
  decides,
  type FrameSummary,
  failures,
  HOST_CHECK_SPECS,
  HOST_CHECKS,
  isConformant,
  type NegotiatedIdentity,
  type ProbeSummary,
  type Tally,
  tally,
} from "./report.js";
export { probeQuery, type RunOptions, runConformance } from "./run.js";
export type { Incoming, Recorded, Session, ShutdownOutcome } from "./session.js";
export {
  describeTarget,
  type HttpTarget,
  type InProcessTarget,
  openSession,
  type StdioTarget,
  type Target,
  type TransportKind,
  transportOf,
} from "./targets.js";
