/**
 * `@ocp/transport-ws/internal`: what the other packages of the OCP monorepo
 * share with this one and a user does not write against (wire plumbing,
 * helpers, the individual limit constants). Not covered by semver: any
 * release may change or remove a name here. Use the root entry.
 *
 * @packageDocumentation
 * @internal
 */

export {
  CONTROL_PREFIX,
  closeReason,
  isSendableCloseCode,
  MAX_CLOSE_REASON_BYTES,
  PROTOCOL,
  TERMINAL_CLOSE_CODES,
} from "./constants.js";
export {
  AckLimitsSchema,
  ConnectionAckSchema,
  ConnectionDisconnectSchema,
  ConnectionRefusedSchema,
  ConnectionRegisteredSchema,
  ControlMessageSchema,
} from "./control.js";
export { closeCodeOf, ERROR_CLOSE_CODES, wsError } from "./errors.js";
export { TEXT_FRAME_CLOSE, TEXT_FRAME_OPEN, unwrapTextFrame } from "./framing.js";
export {
  CLOSE_TIMEOUT_MS,
  DISCONNECT_GRACE_MS,
  HANDSHAKE_TIMEOUT_MS,
  HEARTBEAT_INTERVAL_MS,
  HEARTBEAT_TIMEOUT_MS,
  HIGH_WATER_BYTES,
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
export { NONCE_BYTES, offersSubprotocol } from "./server.js";
