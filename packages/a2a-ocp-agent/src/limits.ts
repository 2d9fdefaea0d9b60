/**
 * Limits of the agent runtime, each a named constant with a finite default
 * (the wire limits are in `@ocp/a2a-ocp-messaging`). The message lifetimes
 * at the end are the entries of the table in `lifetimes.ts`.
 */
import {
  DEFAULT_TTL_SECONDS,
  MAX_CLOCK_SKEW_MS,
  MAX_TTL_SECONDS,
} from "@ocp/a2a-ocp-messaging/internal";

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
/**
 * Longest voting period accepted, seconds: the longest a message may live
 * (`MAX_TTL_SECONDS`, 24 h). A proposal lives until its voting deadline, so
 * an agent offline during any part of the period still receives it; a longer
 * period is refused at `propose` (`limit_exceeded`) rather than letting the
 * proposal expire before its vote ends.
 */
export const MAX_VOTING_PERIOD_SECONDS = MAX_TTL_SECONDS;
/** Wait before re-sending a consensus decision the hub did not acknowledge, ms. */
export const ANNOUNCE_RETRY_MS = 5_000;
/** Conflict ids remembered to report each conflict once. */
export const MAX_REMEMBERED_CONFLICTS = 100_000;
/** Peers one listener admits: allow-list entries (and, with `allowedPeers: "any"`, keys pinned). */
export const MAX_ALLOWED_PEERS = 10_000;
/** §7.3 discovery queries one peer may make of a listener per minute (per agent id, across reconnects). */
export const PEER_DISCOVERY_QUERIES_PER_MINUTE = 60;
/** Control frames (lookups, discovery, malformed ones) one peer may send a listener per minute, per agent id. */
export const PEER_CONTROL_FRAMES_PER_MINUTE = 600;
/** Most JSON bytes of cards in one discovery answer of a listener (as a hub's). */
export const PEER_DISCOVERY_MAX_BYTES = 256 * 1024;
/**
 * §12.2: a stream, sync page or collective answer whose payload JSON is at
 * least this many bytes goes compressed to recipients that announced support
 * (smaller ones gain little once base64 adds a third, and cost CPU).
 */
export const AGENT_COMPRESSION_THRESHOLD_BYTES = 2048;
/** How long the recipients' cards read for §12.2 (who announced compression) are trusted before re-reading, ms. */
export const COMPRESSION_CARDS_MAX_AGE_MS = 60_000;

// Message lifetimes: the `ttl` (seconds) of what the runtime sends, by meaning.

/**
 * Knowledge (`ocp.knowledge.stream`, `update`, `subscribe`, `unsubscribe`,
 * `control`, `conflict`), `ocp.sync.conflict` reports and collective
 * syntheses: kept by the hub for a recipient offline up to this long, the
 * longest a message may live (24 h). An agent away longer catches up with
 * `syncKnowledge` (version vectors), which does not depend on old messages.
 */
export const KNOWLEDGE_TTL_SECONDS = MAX_TTL_SECONDS;
/** Consensus decisions (`ocp.consensus.achieved`, `ocp.consensus.timeout`): as long as knowledge. */
export const CONSENSUS_DECISION_TTL_SECONDS = MAX_TTL_SECONDS;
/**
 * Added to the time left until a voting deadline for a proposal and its
 * votes: the clock skew allowed between agents. The sum is capped at
 * `MAX_TTL_SECONDS` (a 24 h period leaves the hub's own skew grace).
 */
export const VOTING_TTL_GRACE_SECONDS = MAX_CLOCK_SKEW_MS / 1000;
/**
 * Steps of an exchange whose other side waits at most
 * {@link SYNC_STEP_TIMEOUT_MS} for each (sync request, offer, accept, pages,
 * complete; awareness query and response; capability negotiation): a later
 * delivery would find no one waiting, so they live that long.
 */
export const EXCHANGE_TTL_SECONDS = SYNC_STEP_TIMEOUT_MS / 1000;
/** Awareness beacons and updates: as long as a presence entry reads fresh ({@link PRESENCE_STALE_MS}). */
export const PRESENCE_TTL_SECONDS = PRESENCE_STALE_MS / 1000;
/** Events and event subscriptions: live notifications the hub routes at once (the message layer's default). */
export const EVENT_TTL_SECONDS = DEFAULT_TTL_SECONDS;

// §8.4 end-to-end encryption (sealing.ts, sealing-keys.ts, unsealing.ts).

/**
 * How long a recipient's encryption key, read from its signed profile as
 * discovery returned it, is used before discovery is asked again: a key
 * rotated in a re-signed profile reaches senders within this time.
 */
export const SEALING_KEY_MAX_AGE_MS = 60_000;
/** Recipients' encryption keys an agent caches (the oldest is forgotten first). */
export const SEALING_KEY_CACHE_MAX_ENTRIES = 4096;
/**
 * How long after a rotation an agent still opens messages sealed for its
 * retired encryption key (senders pick up the new key within
 * {@link SEALING_KEY_MAX_AGE_MS}; a hub keeps a message at most 24 h): 7 days.
 */
export const ENCRYPTION_KEY_GRACE_MS = 7 * 24 * 60 * 60 * 1000;
