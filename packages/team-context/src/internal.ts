/**
 * `@ocp/team-context/internal`: what the other packages of the OCP monorepo
 * share with this one and a user does not write against (wire plumbing,
 * helpers, the individual limit constants). Not covered by semver: any
 * release may change or remove a name here. Use the root entry.
 *
 * @packageDocumentation
 * @internal
 */

export { teamContextError } from "./errors.js";
export {
  agentName,
  frameTokens,
  MESSAGE_PROVENANCE,
  messageUri,
  NODE_PROVENANCE,
  nodeContent,
  nodeFrame,
  nodeUri,
  teamAnswerFrame,
  versionOf,
} from "./frames.js";
export { frameKindOf, SERVED_KINDS, SHARED_FRAME_TYPE_PREFIX } from "./kinds.js";
export * from "./limits.js";
export { isRemoteHub } from "./provider.js";
export { bestWithinBudget } from "./select.js";
export { frameToNode, sharedNodeId } from "./share.js";
