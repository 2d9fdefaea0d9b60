/**
 * Every limit of the team-context provider, as a named constant with a
 * finite default. The deadline ones can be lowered or raised per provider
 * (`TeamContextOptions`, CLI flags), never switched off: 0 is refused.
 */

/**
 * Default time a query may take from arrival to answer, ms: under the
 * demo host's per-provider timeout (5 s) and the host's default leg timeout
 * (10 s), so the host never times the provider out while it asks the team.
 */
export const DEFAULT_DEADLINE_MS = 4_000;

/** Longest collective query ("ask the team") one query waits for, ms, within the deadline. */
export const DEFAULT_TEAM_WAIT_MS = 2_000;

/**
 * The collective wait ends this long before the deadline, ms: time for the
 * runtime to synthesise, send its synthesis and hand the answers back.
 */
export const DEADLINE_MARGIN_MS = 1_000;

/**
 * Whatever the team and the hub do, the provider stops waiting this long
 * before the deadline, ms, and answers with what it has (the graph's frames).
 */
export const REPLY_RESERVE_MS = 250;

/** Below this much time left, ms, the team is not asked at all. */
export const MIN_TEAM_WAIT_MS = 100;

/** Nodes of the local graph one query ranks into candidate frames. */
export const MAX_GRAPH_CANDIDATES = 64;

/** Longest frame content made from one knowledge node, in UTF-16 code units. */
export const MAX_FRAME_CONTENT_CHARS = 8_000;

/** Message receipts (node id → the signed message it arrived in) remembered; the oldest go first. */
export const MAX_REMEMBERED_RECEIPTS = 100_000;

/** Frames one `shareFrames` call turns into knowledge nodes. */
export const MAX_SHARED_FRAMES = 256;

/** Below this many tokens left in the budget, the team is not asked (no answer would fit). */
export const MIN_TEAM_BUDGET_TOKENS = 32;
