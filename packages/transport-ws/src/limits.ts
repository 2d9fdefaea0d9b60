/**
 * Every limit of the WebSocket transport, with a finite default. Each one can
 * be overridden by the option of the same name in camelCase; none of them
 * reads 0 as "unlimited" (a non-positive or non-integer override is rejected
 * with `invalid_limit`).
 */
import { wsError } from "./errors.js";

/** Largest WebSocket message (a text frame, or a whole binary frame of records): 1 MiB. Larger closes with 1009. */
export const MAX_PAYLOAD_BYTES = 1024 * 1024;

/** Most connections a server holds at once, handshakes included; one more is closed with 4005. */
export const MAX_CONNECTIONS = 10_000;

/**
 * Most bytes one connection may hold on their way out (its own queue plus the
 * socket's `bufferedAmount`): 8 MiB. A send that would exceed it closes the
 * connection with 4003 and drops the queue, so a slow consumer never grows the
 * sender's memory beyond this.
 */
export const MAX_OUTBOUND_BUFFER_BYTES = 8 * 1024 * 1024;

/** Outbound bytes at which a connection reports `backpressured` (and stops handing data to the socket). */
export const HIGH_WATER_BYTES = 1024 * 1024;

/** Outbound bytes at which a backpressured connection emits `drain`. */
export const LOW_WATER_BYTES = 256 * 1024;

/** Interval between heartbeat pings, each side. */
export const HEARTBEAT_INTERVAL_MS = 15_000;

/** How long after a ping the peer has to show any sign of life (a pong or any frame) before 4004. */
export const HEARTBEAT_TIMEOUT_MS = 10_000;

/** From the socket opening to registration confirmed (announcement and `authenticate` included); then 4006. */
export const HANDSHAKE_TIMEOUT_MS = 10_000;

/** How long a closing connection waits for the peer's close frame before the socket is destroyed. */
export const CLOSE_TIMEOUT_MS = 5_000;

/**
 * How long a connection that received the peer's disconnect notice waits for
 * the peer's close frame before it closes itself (1000), ms.
 */
export const DISCONNECT_GRACE_MS = 500;

/** First reconnect delay of a client (before jitter); doubled per failed attempt. */
export const RECONNECT_BASE_MS = 250;

/** Longest reconnect delay of a client. */
export const RECONNECT_MAX_MS = 30_000;

/** Consecutive failed attempts after which a client gives up (reset by each registration). */
export const RECONNECT_MAX_ATTEMPTS = 100;

/** Most records in one binary frame (§6.3 batches), inbound and outbound. */
export const MAX_BATCH_RECORDS = 1_000;

/** The limits a server, a client and a connection run with. */
export interface Limits {
  maxPayloadBytes: number;
  maxConnections: number;
  maxOutboundBufferBytes: number;
  highWaterBytes: number;
  lowWaterBytes: number;
  heartbeatIntervalMs: number;
  heartbeatTimeoutMs: number;
  handshakeTimeoutMs: number;
  closeTimeoutMs: number;
  disconnectGraceMs: number;
  reconnectBaseMs: number;
  reconnectMaxMs: number;
  reconnectMaxAttempts: number;
  maxBatchRecords: number;
}

/** Overrides of {@link Limits}; an absent one takes the default. */
export type LimitOptions = Partial<Limits>;

/** The defaults, as one object. */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxPayloadBytes: MAX_PAYLOAD_BYTES,
  maxConnections: MAX_CONNECTIONS,
  maxOutboundBufferBytes: MAX_OUTBOUND_BUFFER_BYTES,
  highWaterBytes: HIGH_WATER_BYTES,
  lowWaterBytes: LOW_WATER_BYTES,
  heartbeatIntervalMs: HEARTBEAT_INTERVAL_MS,
  heartbeatTimeoutMs: HEARTBEAT_TIMEOUT_MS,
  handshakeTimeoutMs: HANDSHAKE_TIMEOUT_MS,
  closeTimeoutMs: CLOSE_TIMEOUT_MS,
  disconnectGraceMs: DISCONNECT_GRACE_MS,
  reconnectBaseMs: RECONNECT_BASE_MS,
  reconnectMaxMs: RECONNECT_MAX_MS,
  reconnectMaxAttempts: RECONNECT_MAX_ATTEMPTS,
  maxBatchRecords: MAX_BATCH_RECORDS,
});

/**
 * The defaults overridden by `options`, checked: every value a positive
 * integer, `lowWaterBytes < highWaterBytes <= maxOutboundBufferBytes`,
 * `reconnectBaseMs <= reconnectMaxMs`. Throws `invalid_limit` otherwise.
 */
export function resolveLimits(options: LimitOptions = {}): Limits {
  const limits = { ...DEFAULT_LIMITS };
  for (const name of Object.keys(DEFAULT_LIMITS) as (keyof Limits)[]) {
    const value = options[name];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw wsError("invalid_limit", `${name} must be a positive integer (got ${String(value)})`, {
        details: {
          limit: name,
          value,
        },
      });
    }
    limits[name] = value;
  }
  if (limits.lowWaterBytes >= limits.highWaterBytes) {
    throw wsError("invalid_limit", "lowWaterBytes must be below highWaterBytes", {
      details: {
        limit: "lowWaterBytes",
        value: limits.lowWaterBytes,
      },
    });
  }
  if (limits.highWaterBytes > limits.maxOutboundBufferBytes) {
    throw wsError("invalid_limit", "highWaterBytes must not exceed maxOutboundBufferBytes", {
      details: {
        limit: "highWaterBytes",
        value: limits.highWaterBytes,
      },
    });
  }
  if (limits.reconnectBaseMs > limits.reconnectMaxMs) {
    throw wsError("invalid_limit", "reconnectBaseMs must not exceed reconnectMaxMs", {
      details: {
        limit: "reconnectBaseMs",
        value: limits.reconnectBaseMs,
      },
    });
  }
  return limits;
}

/** The subset of {@link Limits} whose names appear in `options`, for picking limit options out of a larger object. */
export function pickLimits<Options extends LimitOptions>(options: Options): LimitOptions {
  const picked: LimitOptions = {};
  for (const name of Object.keys(DEFAULT_LIMITS) as (keyof Limits)[]) {
    const value = options[name];
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}
