/**
 * `@ocp/conformance/internal`: what the other packages of the OCP monorepo
 * share with this one and a user does not write against (wire plumbing,
 * helpers, the individual limit constants). Not covered by semver: any
 * release may change or remove a name here. Use the root entry.
 *
 * @packageDocumentation
 * @internal
 */

export { cgpFencedSpans } from "./cgp/host-harness.js";
export {
  BUDGET_RULES,
  judgeAsOf,
  judgeCgpHandshake,
  judgeCgpProbe,
  judgeConsentScope,
} from "./cgp/judge.js";
export { CGP_FOREIGN_VERSION, CGP_MALFORMED_INPUTS } from "./cgp/probes.js";
export { mutatedDigest, VERIFY_PROVIDER_ID } from "./cgp/verify.js";
export { AS_OF_PIN, cgpProbeQuery, readCgp } from "./cgp/wire.js";
export { checkCorrelation } from "./checks/correlation.js";
export { judgeKinds, judgeMaxFrames, MAX_FRAMES_PROBE, pickKind } from "./checks/filters.js";
export { countContentTokens, judgeCosts, judgeProbe, TOKENIZER } from "./checks/frames.js";
export { FOREIGN_VERSION, judgeHandshake, judgeVersionMismatch } from "./checks/handshake.js";
export { checkMalformed, MALFORMED_INPUTS } from "./checks/malformed.js";
export { judgeSchema, schemaErrors } from "./checks/schema.js";
export { judgeShutdown } from "./checks/shutdown.js";
export { parseArgs, USAGE } from "./cli-args.js";
export { chooseFamily, FAMILY_CHOICES } from "./family.js";
export { CgpFixtureLogic, FIXTURE_FINGERPRINT } from "./fixture/cgp.js";
export { CGP_MISBEHAVE_MODES, isCgpMisbehaveMode } from "./fixture/cgp-modes.js";
export { DualFixture } from "./fixture/dual.js";
export {
  FixtureLogic,
  HTTP_MISBEHAVE_MODES,
  isHttpMisbehaveMode,
  isMisbehaveMode,
  MISBEHAVE_MODES,
} from "./fixture/provider.js";
export { ocpHostFencedSpans, ourHost } from "./host-adapter.js";
export { fixtureCommand } from "./host-harness.js";
export {
  CGP_CHECK_SPECS,
  CGP_HOST_CHECK_SPECS,
  CGP_HOST_CHECKS,
  CGP_ONLY_CHECKS,
  CHECK_SPECS,
  decides,
  failures,
  HOST_CHECK_SPECS,
  tally,
} from "./report.js";
export { probeQuery } from "./run.js";
export { describeTarget, openSession, transportOf } from "./targets.js";
