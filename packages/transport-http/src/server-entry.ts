/**
 * `@ocp/transport-http/server`: serve an Open Context provider over HTTP
 * (fastify). Loads no client code.
 */
export { fromErrorEnvelope, type HttpError, type HttpErrorCode, httpError } from "./errors.js";
export { PROTOCOL_VERSION_HEADER } from "./headers.js";
export {
  MAX_BODY_BYTES,
  MAX_CONNECTIONS,
  MAX_FAMILY_PEERS,
  REQUEST_TIMEOUT_MS,
} from "./limits.js";
export {
  createHttpProviderServer,
  type HttpProviderServer,
  type HttpProviderServerOptions,
} from "./server.js";
