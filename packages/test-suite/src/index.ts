/**
 * `@ocp/test-suite`: the a2a+ocp compatibility suite. `runCompatibility({ hub })`
 * returns a typed report in the shape of `@ocp/conformance`'s (also for
 * `{ agent }` and `{ agentCommand }`); `ocp-test` is its CLI;
 * `startFixtureHub` / `listenFixtureAgent` break one rule per named mode.
 */
export { AGENT_CHECK_NAMES, AGENT_CHECKS } from "./agent/checks.js";
export { HUB_PLACEHOLDER, HUB_URL_ENV } from "./agent/command.js";
export { type AgentCheck, AgentCheckContext } from "./agent/context.js";
export type { AgentSession, Received, Tester } from "./agent/session.js";
export { HUB_CHECK_NAMES, HUB_CHECKS } from "./checks/index.js";
export { NODE_CARRIERS } from "./checks/routing.js";
export { type Parsed, parseArgs, USAGE } from "./cli-args.js";
export { type Check, CheckContext, type Verdict } from "./context.js";
export type { FederationTarget, FixturePeerName } from "./federation-fixture.js";
export {
  AGENT_MISBEHAVE_MODES,
  type AgentMisbehaveMode,
  isAgentMisbehaveMode,
} from "./fixture/agent.js";
export {
  connectFixtureAgent,
  type FixtureAgent,
  type FixtureAgentOptions,
  listenFixtureAgent,
} from "./fixture/agent-net.js";
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
export {
  type AgentCommandTarget,
  type AgentTarget,
  type CompatibilityOptions,
  type HubTarget,
  runCompatibility,
  type Target,
} from "./run.js";
