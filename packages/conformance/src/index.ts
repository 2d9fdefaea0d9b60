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
  createFixtureProvider,
  type FixtureAction,
  FixtureLogic,
  HTTP_MISBEHAVE_MODES,
  type HttpMisbehaveMode,
  isHttpMisbehaveMode,
  isMisbehaveMode,
  MISBEHAVE_MODES,
  type MisbehaveMode,
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
  CHECK_SPECS,
  CHECKS,
  type CheckName,
  type CheckResult,
  type CheckSpec,
  type CheckStatus,
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
