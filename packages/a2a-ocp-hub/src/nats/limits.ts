/**
 * Every limit of the NATS store and bus, each a named constant with a
 * finite default (listed in the package README, "Clustered hubs").
 */
/** NATS: how long an inbox stream keeps an unconfirmed delivery, ms (the longest TTL plus skew). */
export const NATS_INBOX_MAX_AGE_MS = 86_400_000 + 60_000;

/** NATS: the JetStream `Nats-Msg-Id` duplicate window of an inbox stream, ms (as long as a message can live). */
export const NATS_DUPLICATE_WINDOW_MS = 86_400_000 + 60_000;

/** NATS: how long one JetStream request (publish ack, stream info, message get) may take, ms. */
export const NATS_REQUEST_TIMEOUT_MS = 10_000;

/** NATS: how long connecting to the server may take before the hub gives up, ms. */
export const NATS_CONNECT_TIMEOUT_MS = 10_000;

/** NATS: most inbox messages read concurrently while a session catches up. */
export const NATS_PENDING_CONCURRENCY = 64;
