/**
 * Every limit of the NATS store and bus, each a named constant with a
 * finite default (listed in the package README, "Clustered hubs").
 */
import { MAX_CLOCK_SKEW_MS, MAX_TTL_SECONDS } from "@ocp/a2a-ocp-messaging/internal";

/**
 * NATS: how long an inbox stream keeps an unconfirmed delivery, ms: as long
 * as a message may live after it reaches a hub with the default skew
 * (`MAX_TTL_SECONDS`, dated up to `MAX_CLOCK_SKEW_MS` ahead, plus that much
 * grace after expiry), so `max_age` never drops a delivery before its
 * `expiresAt`. A hub with a larger `maxClockSkewMs` refuses a store with less
 * (pass `JetStreamStore` `maxAgeMs`).
 */
export const NATS_INBOX_MAX_AGE_MS = MAX_TTL_SECONDS * 1000 + 2 * MAX_CLOCK_SKEW_MS;

/** NATS: the JetStream `Nats-Msg-Id` duplicate window of an inbox stream, ms (as long as a message can live). */
export const NATS_DUPLICATE_WINDOW_MS = NATS_INBOX_MAX_AGE_MS;

/** NATS: how long one JetStream request (publish ack, stream info, message get) may take, ms. */
export const NATS_REQUEST_TIMEOUT_MS = 10_000;

/** NATS: how long connecting to the server may take before the hub gives up, ms. */
export const NATS_CONNECT_TIMEOUT_MS = 10_000;

/** NATS: most inbox messages read concurrently while a session catches up. */
export const NATS_PENDING_CONCURRENCY = 64;

/**
 * NATS: how many commits a hub keeps in flight on JetStream at once (each a
 * batch of accepted durable messages, published while earlier batches wait
 * for their acks; outcomes are applied in order).
 */
export const NATS_COMMIT_PIPELINE = 8;

/**
 * NATS: how long a hub waits before publishing again a message JetStream
 * answered "unavailable" (503: a stream leader being elected after a node
 * died), ms; it keeps trying until `NATS_REQUEST_TIMEOUT_MS` has passed.
 */
export const NATS_PUBLISH_RETRY_MS = 250;

/** NATS: most agent subject tokens (SHA-256 of the URI) a hub keeps computed. */
export const NATS_TOKEN_CACHE_MAX_ENTRIES = 10_000;

/**
 * NATS: how many sequences past the last purge an agent may confirm before
 * its inbox stream is purged at once (purges.ts: each purge compacts a file
 * block of the stream).
 */
export const NATS_PURGE_EVERY = 1024;

/** NATS: longest a confirmed delivery stays in its inbox stream before the purge, ms. */
export const NATS_PURGE_DELAY_MS = 2000;

/** How often a clustered hub tells the others what agents spent of their budgets on it, ms. */
export const NATS_BUDGET_SHARE_INTERVAL_MS = 250;

/** Largest budget-share message a hub publishes or reads, bytes (a larger one is split, or ignored). */
export const NATS_BUDGET_SHARE_MAX_BYTES = 512 * 1024;

/**
 * NATS: how often the hub pings its NATS server, ms (the client's
 * `pingInterval`; `--nats-ping-interval`). With {@link NATS_MAX_PINGS_OUT} it
 * bounds how long a hub stays on a half-open connection (a partition, a dead
 * middlebox): at most `(NATS_MAX_PINGS_OUT + 1) × NATS_PING_INTERVAL_MS`
 * without a pong, then it reconnects to another listed server. Suited to a
 * LAN; raise both on a slow WAN.
 */
export const NATS_PING_INTERVAL_MS = 1000;

/** NATS: pings left unanswered before the connection is declared stale (`maxPingOut`; `--nats-max-pings-out`). */
export const NATS_MAX_PINGS_OUT = 2;

/**
 * NATS: how long publishes in flight when the connection is lost wait for
 * the reconnect, ms (they are then published again, with the same
 * `Nats-Msg-Id`); after it they are answered `store_failed`. While the hub
 * has no connection, a new durable message is refused at once.
 */
export const NATS_RECONNECT_GRACE_MS = 1000;

/** NATS: the client's pause before dialling the same server again, ms (`reconnectTimeWait`). */
export const NATS_RECONNECT_WAIT_MS = 250;

/**
 * NATS: attempts, `NATS_PUBLISH_RETRY_MS` apart, to read an attached agent's
 * last stored delivery after a reconnect (its session then catches up what
 * was republished while the hub was cut off).
 */
export const NATS_RESUME_ATTEMPTS = 5;

/**
 * NATS: how long the client may take to close a stale connection before the
 * hub destroys its socket, ms (its closing flush never completes when the
 * send buffer of a half-open connection is full: stale.ts).
 */
export const NATS_STALE_CLOSE_MS = 500;
