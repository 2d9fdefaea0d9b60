/**
 * Wire constants of the a2a+ocp WebSocket transport (spec §6.2–§6.4): the
 * subprotocol, the close codes, and the `type` values of the transport's own
 * control messages.
 */

/** The only WebSocket subprotocol this transport speaks (§6.2). Any other is refused at the upgrade. */
export const SUBPROTOCOL = "a2a-ocp-v1";

/** The `protocol` field of every a2a+ocp message, control messages included (§3). */
export const PROTOCOL = "a2a+ocp";

/** The a2a+ocp version this transport implements. */
export const PROTOCOL_VERSION = "1.0.0";

/**
 * Close codes. 1000–1011 are RFC 6455's; 4000–4008 are this transport's
 * (the private-use range), each naming why the connection ended.
 */
export const CLOSE_CODES = {
  /** The peer said goodbye (after a disconnect notice). */
  NORMAL: 1000,
  /** The endpoint is going away (server shutdown, client leaving). */
  GOING_AWAY: 1001,
  /** A binary record was not valid UTF-8. */
  INVALID_PAYLOAD: 1007,
  /** A frame or record exceeded the payload limit. */
  MESSAGE_TOO_BIG: 1009,
  /** The endpoint failed internally (e.g. the `authenticate` callback threw). */
  INTERNAL_ERROR: 1011,
  /** The peer broke the lifecycle or the framing (message before registration, bad control message, truncated record). */
  PROTOCOL_ERROR: 4000,
  /** The announcement did not prove the agent holds the key of its `a2a://` URI over this connection's nonce. */
  AUTHENTICATION_FAILED: 4001,
  /** The agent is authentic but its registration was refused (e.g. not a member, duplicate). */
  REGISTRATION_REFUSED: 4002,
  /** The peer read too slowly: its outbound buffer exceeded its limit. */
  SLOW_CONSUMER: 4003,
  /** The peer showed no sign of life within the heartbeat timeout. */
  HEARTBEAT_TIMEOUT: 4004,
  /** The server already holds its maximum number of connections. */
  TOO_MANY_CONNECTIONS: 4005,
  /** The lifecycle did not reach registration within the handshake timeout. */
  HANDSHAKE_TIMEOUT: 4006,
  /** A policy of the layer above was violated (rate limit, access control). */
  POLICY_VIOLATION: 4008,
} as const;

export type CloseCodeName = keyof typeof CLOSE_CODES;
export type CloseCode = (typeof CLOSE_CODES)[CloseCodeName];

/**
 * Close codes after which a client does not reconnect on its own: the same
 * announcement would be refused again, or the server deliberately said goodbye.
 */
export const TERMINAL_CLOSE_CODES: ReadonlySet<number> = new Set([
  CLOSE_CODES.NORMAL,
  CLOSE_CODES.PROTOCOL_ERROR,
  CLOSE_CODES.AUTHENTICATION_FAILED,
  CLOSE_CODES.REGISTRATION_REFUSED,
]);

/** `type` values of the transport's control messages; the prefix `ocp.connection.` is reserved. */
export const CONTROL_TYPES = {
  /** Server → client, first message: the nonce the announcement must be signed over. */
  ACK: "ocp.connection.ack",
  /** Server → client: the announcement was accepted. */
  REGISTERED: "ocp.connection.registered",
  /** Server → client: the announcement was refused; the close follows. */
  REFUSED: "ocp.connection.refused",
  /** Either side: a graceful disconnect notice; the close follows. */
  DISCONNECT: "ocp.connection.disconnect",
} as const;

/** The reserved prefix of control message types. */
export const CONTROL_PREFIX = "ocp.connection.";

/** Longest close reason RFC 6455 allows, in bytes (125-byte control payload minus the 2-byte code). */
export const MAX_CLOSE_REASON_BYTES = 123;

/** `reason` cut to at most {@link MAX_CLOSE_REASON_BYTES} UTF-8 bytes, never inside a character. */
export function closeReason(reason: string): string {
  if (Buffer.byteLength(reason) <= MAX_CLOSE_REASON_BYTES) return reason;
  let out = "";
  let bytes = 0;
  for (const ch of reason) {
    const size = Buffer.byteLength(ch);
    if (bytes + size > MAX_CLOSE_REASON_BYTES) break;
    out += ch;
    bytes += size;
  }
  return out;
}
