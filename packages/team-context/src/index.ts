/**
 * `@ocp/team-context`: a team's a2a+ocp knowledge served as Open Context
 * frames ({@link TeamContextProvider}, the `ocp-team-context` bin), and the
 * reverse: frames a host received shared into the team ({@link shareFrames}).
 */

export { TEAM_CONTEXT_ERROR_CODES, type TeamContextErrorCode } from "./errors.js";
export type { TeamAnswer } from "./frames.js";
export { LIMITS } from "./limits-object.js";
export { type TeamContextOptions, TeamContextProvider } from "./provider.js";
export { type ShareOptions, shareFrames } from "./share.js";
export { type JoinTeamOptions, joinTeam } from "./team.js";
