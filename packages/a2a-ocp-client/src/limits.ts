/**
 * Every limit of the hub client, each a named constant with a finite
 * default. Options that override one never accept 0 or Infinity.
 */

/** Client: how many delivered sequence numbers it lets pass before it confirms them to the hub. */
export const CLIENT_CONFIRM_EVERY = 64;

/** Client: longest time a delivered sequence number waits before it is confirmed to the hub, ms. */
export const CLIENT_CONFIRM_INTERVAL_MS = 250;

/** Client: how long `send` waits for the hub's ack (or reject) before it fails with `hub_timeout`, ms. */
export const CLIENT_ACK_TIMEOUT_MS = 30_000;

/** Client: most messages awaiting the hub's ack at once; a further `send` fails with `hub_backlog`. */
export const CLIENT_MAX_PENDING_SENDS = 10_000;

/** Client: how long a profile lookup at the hub may take, ms. */
export const CLIENT_LOOKUP_TIMEOUT_MS = 10_000;

/** Client: most message ids remembered to drop duplicates. */
export const CLIENT_DEDUP_MAX_ENTRIES = 100_000;

/** Client: most sender profiles cached. */
export const CLIENT_PROFILE_CACHE_MAX_ENTRIES = 10_000;

/**
 * Client: most `process` warnings it writes about refused deliveries when
 * nothing listens to its `dropped` event (then one saying further drops go
 * unreported). A replay of a message already delivered is never warned about.
 */
export const CLIENT_UNHEARD_DROP_WARNINGS = 10;
