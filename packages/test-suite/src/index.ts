/**
 * `@ocp/test-suite`: the a2a+ocp compatibility suite. `runCompatibility({ hub })`
 * returns a typed report in the shape of `@ocp/conformance`'s; `ocp-test` is
 * its CLI; `startFixtureHub` is a hub that breaks one rule per named mode.
 */
export { HUB_CHECK_NAMES, HUB_CHECKS } from "./checks/index.js";
export { NODE_CARRIERS } from "./checks/routing.js";
export { type Parsed, parseArgs, USAGE } from "./cli-args.js";
export { type Check, CheckContext, type Verdict } from "./context.js";
export {
  type FixtureHub,
  type FixtureHubOptions,
  HUB_MISBEHAVE_MODES,
  type HubMisbehaveMode,
  isHubMisbehaveMode,
  startFixtureHub,
} from "./fixture/hub.js";
export { formatCompatibility } from "./format.js";
export * as limits from "./limits.js";
export { Peer, SUBPROTOCOL } from "./raw.js";
export type {
  CheckResult,
  CheckStatus,
  CompatibilityCheckSpec,
  CompatibilityReport,
} from "./report.js";
export { type CompatibilityOptions, type HubTarget, runCompatibility, type Target } from "./run.js";
