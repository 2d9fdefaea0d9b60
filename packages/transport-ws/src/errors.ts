import { type ErrorFactory, errorFactory, type OcpError } from "@ocp/types";
import { CLOSE_CODES } from "./constants.js";

/**
 * Stable codes of every {@link OcpError} this package raises or reports,
 * each with the close code a connection ends with for it (`undefined` when
 * the failure is local and ends no connection). See the README table.
 */
export const ERROR_CLOSE_CODES = {
  /** The peer broke the lifecycle or sent a malformed control message. */
  protocol_error: CLOSE_CODES.PROTOCOL_ERROR,
  /** A binary frame's records do not add up (truncated length prefix or record, empty record). */
  invalid_record: CLOSE_CODES.PROTOCOL_ERROR,
  /** A binary frame carried more than `maxBatchRecords` records. */
  too_many_records: CLOSE_CODES.PROTOCOL_ERROR,
  /** A record was not valid UTF-8. */
  invalid_utf8: CLOSE_CODES.INVALID_PAYLOAD,
  /** A message, record or frame exceeded `maxPayloadBytes`. */
  payload_too_large: CLOSE_CODES.MESSAGE_TOO_BIG,
  /** The announcement was refused by `authenticate` as not proving its identity. */
  authentication_failed: CLOSE_CODES.AUTHENTICATION_FAILED,
  /** The announcement was refused by `authenticate` as not admissible. */
  registration_refused: CLOSE_CODES.REGISTRATION_REFUSED,
  /** The announcement was refused by `authenticate` on policy. */
  policy_violation: CLOSE_CODES.POLICY_VIOLATION,
  /** The outbound buffer exceeded `maxOutboundBufferBytes`. */
  slow_consumer: CLOSE_CODES.SLOW_CONSUMER,
  /** No sign of life within `heartbeatTimeoutMs` of a ping. */
  heartbeat_timeout: CLOSE_CODES.HEARTBEAT_TIMEOUT,
  /** The server held `maxConnections` already. */
  too_many_connections: CLOSE_CODES.TOO_MANY_CONNECTIONS,
  /** Registration was not reached within `handshakeTimeoutMs`. */
  handshake_timeout: CLOSE_CODES.HANDSHAKE_TIMEOUT,
  /** A callback of the layer above threw, or the socket failed. */
  internal: CLOSE_CODES.INTERNAL_ERROR,
  /** The connection ended (or was never open) before the operation completed. */
  closed: undefined,
  /** A client exhausted `reconnectMaxAttempts` without reaching registration. */
  unreachable: undefined,
  /** An option was not a positive integer or the limits contradict each other. */
  invalid_limit: undefined,
} as const satisfies Record<string, number | undefined>;

/** Stable codes of this package's errors. */
export type WsErrorCode = keyof typeof ERROR_CLOSE_CODES;

/** An error raised or reported by this package. `details.closeCode` is the close code to use, if any. */
export type WsError = OcpError<WsErrorCode>;

const raise = errorFactory<WsErrorCode>();

/**
 * The one error helper: a typed {@link OcpError} (only a {@link WsErrorCode}
 * compiles) with `details.closeCode` filled in from {@link ERROR_CLOSE_CODES}.
 */
export const wsError: ErrorFactory<WsErrorCode> = (code, message, options = {}) => {
  const closeCode = ERROR_CLOSE_CODES[code];
  const details = options.details ?? {};
  return raise(code, message, {
    ...options,
    details: closeCode === undefined ? details : { closeCode, ...details },
  });
};

/** The close code to use for `error`, if it is one of ours and ends a connection. */
export function closeCodeOf(error: WsError): number | undefined {
  return ERROR_CLOSE_CODES[error.code];
}
