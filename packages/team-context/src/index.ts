/**
 * `@ocp/team-context`: a team's a2a+ocp knowledge served as Open Context
 * frames ({@link TeamContextProvider}, the `ocp-team-context` bin), and the
 * reverse: frames a host received shared into the team ({@link shareFrames}).
 */

export {
  TEAM_CONTEXT_ERROR_CODES,
  type TeamContextErrorCode,
  teamContextError,
} from "./errors.js";
export {
  agentName,
  frameTokens,
  MESSAGE_PROVENANCE,
  messageUri,
  NODE_PROVENANCE,
  nodeContent,
  nodeFrame,
  nodeUri,
  type TeamAnswer,
  teamAnswerFrame,
  versionOf,
} from "./frames.js";
export { frameKindOf, SERVED_KINDS, SHARED_FRAME_TYPE_PREFIX } from "./kinds.js";
export * from "./limits.js";
export { isRemoteHub, type TeamContextOptions, TeamContextProvider } from "./provider.js";
export { bestWithinBudget } from "./select.js";
export { frameToNode, type ShareOptions, sharedNodeId, shareFrames } from "./share.js";
export { type JoinTeamOptions, joinTeam } from "./team.js";
