/**
 * `@ocp/mcp-bridge/internal`: what the other packages of the OCP monorepo
 * share with this one and a user does not write against (wire plumbing,
 * helpers, the individual limit constants). Not covered by semver: any
 * release may change or remove a name here. Use the root entry.
 *
 * @packageDocumentation
 * @internal
 */

export { ensureConsent } from "./consent.js";
export { bridgeError, toWireError } from "./errors.js";
export { BudgetPacker, makeFrame } from "./frames.js";
export * from "./limits.js";
export { describeTarget, McpSession, targetIsRemote } from "./mcp-session.js";
export { type McpStdioOptions, McpStdioTransport } from "./mcp-stdio.js";
export {
  ProviderHandle,
  type ProviderHandleOptions,
  type ProviderTarget,
} from "./provider-handle.js";
export { ResourceRanker } from "./ranker.js";
export { frameResourceUri } from "./to-mcp.js";
