// Every limit of hub-to-hub federation, each a named constant with a finite
// default (docs/reference.md, "Federation limits").

/** First delay before a lost or failed hub link is dialled again, ms (doubled per failure, with jitter). */
export const FEDERATION_BACKOFF_BASE_MS = 250;

/** Longest delay between two dials of a hub link, ms. */
export const FEDERATION_BACKOFF_MAX_MS = 10_000;

/** Length of a peer organisation's budget window, ms. */
export const FEDERATION_BUDGET_WINDOW_MS = 60_000;

/** Most frames (messages, queries, cards, anything unreadable) a peer hub may send per window; more are refused `federation_over_budget`. */
export const FEDERATION_MESSAGES_PER_MINUTE = 6_000;

/** Most bytes of forwarded messages a peer hub may send per window. */
export const FEDERATION_BYTES_PER_MINUTE = 64 * 1024 * 1024;

/**
 * Most frames a peer hub may send past its exhausted budget within one
 * window before its link is closed (4008); it may dial again.
 */
export const FEDERATION_OVER_BUDGET_FRAMES_BEFORE_CLOSE = 100;

/** Most forwarded messages in flight on one link, unacknowledged by the peer. */
export const FEDERATION_IN_FLIGHT_MAX = 256;

/** Most agents one peer hub may vouch for (cards beyond it are refused). */
export const FEDERATION_MAX_AGENTS_PER_PEER = 10_000;

/** Most cards in one `ocp.fed.agents` frame. */
export const FEDERATION_MAX_CARDS_PER_FRAME = 256;

/** Most peer hubs one federate file may list. */
export const FEDERATION_MAX_PEERS = 64;

/**
 * How long a hub of a NATS cluster holds a peer's link without renewing its
 * lease, ms: when the holder dies, another hub of the cluster takes the link
 * within this (plus a dial's backoff).
 */
export const FEDERATION_LEASE_TTL_MS = 5_000;

/** How often the holder of a peer's link renews its lease, and the other hubs of the cluster try to take it, ms. */
export const FEDERATION_LEASE_RENEW_MS = 1_000;

/** How often the hub holding a peer's link reads its outbox for what other hubs of the cluster committed, ms. */
export const FEDERATION_CLUSTER_PUMP_MS = 200;
