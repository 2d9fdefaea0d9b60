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
  CONTROL_TYPES,
  PROTOCOL_VERSION,
  SUBPROTOCOL,
} from "./constants.js";
export type {
  AckLimits,
  ConnectionAck,
  ConnectionDisconnect,
  ConnectionRefused,
  ConnectionRegistered,
  ControlMessage,
} from "./control.js";
export type { WsError, WsErrorCode } from "./errors.js";
export type { FramingLimits } from "./framing.js";
export type { HeartbeatOptions } from "./heartbeat.js";
export { DEFAULT_LIMITS, type LimitOptions, type Limits } from "./limits.js";
export {
  type Authenticate,
  type AuthenticateAccept,
  type AuthenticateContext,
  type AuthenticateRefuse,
  type AuthenticateResult,
  createWsServer,
  type RefusalInfo,
  type RegisteredInfo,
  type ServerStats,
  WsServer,
  type WsServerEvents,
  type WsServerOptions,
} from "./server.js";
