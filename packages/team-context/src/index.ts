/**
 * `@ocp/team-context`: a team's a2a+ocp knowledge served as Open Context
 * frames ({@link TeamContextProvider}, the `ocp-team-context` bin), and the
 * reverse: frames a host received shared into the team ({@link shareFrames}).
 */

export { TEAM_CONTEXT_ERROR_CODES, type TeamContextErrorCode } from "./errors.js";
export type { TeamAnswer } from "./frames.js";
/**
 * Every limit of `@ocp/team-context`, by name (`LIMITS.NAME`): the finite defaults the
 * package enforces, each documented where it is defined (`src/limits.ts`) and
 * listed in the README's limits table. A module namespace: no member can be
 * reassigned and none added.
 */
export * as LIMITS from "./limits.js";
export { type TeamContextOptions, TeamContextProvider } from "./provider.js";
export { type ShareOptions, shareFrames } from "./share.js";
export { type JoinTeamOptions, joinTeam } from "./team.js";
