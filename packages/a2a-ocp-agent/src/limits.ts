/**
 * Limits of the agent runtime, each a named constant with a finite default
 * (the package's wire limits are in `../limits.ts`).
 */

/** Items (nodes plus edges) in one `ocp.knowledge.sync.response` page. */
export const SYNC_PAGE_ITEMS = 500;
/** Longest wait for each step of a sync exchange (offer, each page, complete), ms. */
export const SYNC_STEP_TIMEOUT_MS = 30_000;
/** Nodes per `ocp.knowledge.stream` chunk when a subscription names no batch size. */
export const DEFAULT_STREAM_BATCH = 50;
/** Pending nodes a paused or pull subscription buffers before the oldest are dropped. */
export const MAX_PENDING_PER_SUBSCRIPTION = 10_000;
/** Shortest pull interval a subscription's `frequency` may ask for, ms. */
export const MIN_PULL_INTERVAL_MS = 100;
/** Pull interval when a pull subscription names no `frequency`, ms. */
export const DEFAULT_PULL_INTERVAL_MS = 60_000;
/** Knowledge subscriptions one agent serves at once. */
export const MAX_KNOWLEDGE_SUBSCRIPTIONS = 1_000;
/** Findings one agent returns to a collective query. */
export const MAX_FINDINGS_PER_RESPONSE = 5;
/** Longest collective query wait an agent accepts, ms. */
export const MAX_COLLECTIVE_TIMEOUT_MS = 120_000;
/** A presence entry not refreshed for this long is reported `away`, ms. */
export const PRESENCE_STALE_MS = 60_000;
/** Event subscriptions one agent holds. */
export const MAX_EVENT_SUBSCRIPTIONS = 1_000;
/** Longest voting period accepted, seconds (30 days). */
export const MAX_VOTING_PERIOD_SECONDS = 30 * 24 * 3600;
/** Wait before re-sending a consensus decision the hub did not acknowledge, ms. */
export const ANNOUNCE_RETRY_MS = 5_000;
/** Conflict ids remembered to report each conflict once. */
export const MAX_REMEMBERED_CONFLICTS = 100_000;
