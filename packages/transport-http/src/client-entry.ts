/**
 * `@ocp/transport-http/client`: connect to an Open Context provider over
 * HTTP (keep-alive undici pool; remote means egress). Loads no server code.
 */
export {
  type CgpHttpProvider,
  type ConnectCgpHttpProviderOptions,
  connectCgpHttpProvider,
} from "./cgp-client.js";
export {
  type ConnectHttpProviderOptions,
  connectHttpProvider,
  type HttpProvider,
} from "./client.js";
export { fromErrorEnvelope, type HttpError, type HttpErrorCode, httpError } from "./errors.js";
export {
  BODY_EXCERPT_CHARS,
  HANDSHAKE_TIMEOUT_MS,
  KEEP_ALIVE_TIMEOUT_MS,
  MAX_BODY_BYTES,
  MAX_CONNECTIONS,
  REQUEST_TIMEOUT_MS,
} from "./limits.js";
export { checkProviderUrl, isLoopbackHost } from "./url.js";
