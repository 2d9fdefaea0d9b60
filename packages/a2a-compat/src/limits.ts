/** Limits of the A2A compatibility layer, each a named constant with a finite default. */

/** Longest wait for an agent card (connect, headers and body), ms. */
export const CARD_FETCH_TIMEOUT_MS = 5_000;
/** How long a resolved card is reused before it is fetched again, ms. */
export const CARD_CACHE_TTL_MS = 60_000;
/** Cards a resolver keeps (least recently resolved evicted first). */
export const CARD_CACHE_MAX_ENTRIES = 1_000;
/** Largest agent card accepted, bytes. */
export const MAX_CARD_BYTES = 64 * 1024;
/** Longest wait for an A2A task sent by the fallback, ms. */
export const A2A_TASK_TIMEOUT_MS = 30_000;
/** Longest wait for the peer's `capability.confirm`, ms. */
export const NEGOTIATION_TIMEOUT_MS = 10_000;
/** Peers whose negotiated features an agent remembers (oldest forgotten first). */
export const MAX_NEGOTIATED_PEERS = 10_000;
/** Largest JSON body the A2A endpoint accepts, bytes. */
export const MAX_A2A_REQUEST_BYTES = 1024 * 1024;
/** Agents `findAgents` returns at most. */
export const MAX_DISCOVERY_RESULTS = 1_000;
