/**
 * `@ocp/transport-ws`: the a2a+ocp WebSocket transport (subprotocol
 * `a2a-ocp-v1`): `WsServer` / `createWsServer` and `WsClient` / `connectWs`,
 * their connections, limits, close codes and the connection-control frames.
 * Framing, heartbeat and backoff are internal.
 */
export type { BackoffOptions } from "./backoff.js";
export {
  type AnnounceContext,
  type ClientRegistration,
  type ClientState,
  connectWs,
  type ReconnectInfo,
  WsClient,
  type WsClientEvents,
  type WsClientOptions,
} from "./client.js";
export {
  type CloseInfo,
  Connection,
  type ConnectionEvents,
  type ConnectionState,
  type ConnectionStats,
  type DisconnectNotice,
  type MessageMeta,
  type SendStatus,
} from "./connection.js";
export {
  CLOSE_CODES,
  type CloseCode,
  type CloseCodeName,
  CONTROL_PREFIX,
  CONTROL_TYPES,
  closeReason,
  isSendableCloseCode,
  MAX_CLOSE_REASON_BYTES,
  PROTOCOL,
  PROTOCOL_VERSION,
  SUBPROTOCOL,
  TERMINAL_CLOSE_CODES,
} from "./constants.js";
export {
  type AckLimits,
  AckLimitsSchema,
  type ConnectionAck,
  ConnectionAckSchema,
  type ConnectionDisconnect,
  ConnectionDisconnectSchema,
  type ConnectionRefused,
  ConnectionRefusedSchema,
  type ConnectionRegistered,
  ConnectionRegisteredSchema,
  type ControlMessage,
  ControlMessageSchema,
} from "./control.js";
export {
  closeCodeOf,
  ERROR_CLOSE_CODES,
  type WsError,
  type WsErrorCode,
  wsError,
} from "./errors.js";
export {
  type FramingLimits,
  TEXT_FRAME_CLOSE,
  TEXT_FRAME_OPEN,
  unwrapTextFrame,
} from "./framing.js";
export type { HeartbeatOptions } from "./heartbeat.js";
export {
  CLOSE_TIMEOUT_MS,
  DEFAULT_LIMITS,
  DISCONNECT_GRACE_MS,
  HANDSHAKE_TIMEOUT_MS,
  HEARTBEAT_INTERVAL_MS,
  HEARTBEAT_TIMEOUT_MS,
  HIGH_WATER_BYTES,
  type LimitOptions,
  type Limits,
  LOW_WATER_BYTES,
  MAX_BATCH_RECORDS,
  MAX_CONNECTIONS,
  MAX_OUTBOUND_BUFFER_BYTES,
  MAX_PAYLOAD_BYTES,
  pickLimits,
  RECONNECT_BASE_MS,
  RECONNECT_MAX_ATTEMPTS,
  RECONNECT_MAX_MS,
  resolveLimits,
} from "./limits.js";
export { normalizeOrigin, originAllowed } from "./origin.js";
export {
  type Authenticate,
  type AuthenticateAccept,
  type AuthenticateContext,
  type AuthenticateRefuse,
  type AuthenticateResult,
  createWsServer,
  NONCE_BYTES,
  offersSubprotocol,
  type RefusalInfo,
  type RegisteredInfo,
  type ServerStats,
  WsServer,
  type WsServerEvents,
  type WsServerOptions,
} from "./server.js";
