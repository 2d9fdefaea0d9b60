/**
 * Every limit of the HTTP transport, with a finite default. Each one can be
 * overridden by an option of the same meaning; none of them reads 0 as
 * "unlimited" (a non-positive or non-finite override is rejected).
 */

/**
 * Largest body, in bytes, either way: the server refuses a larger request
 * with 413, the client stops reading a larger response (and fails it with
 * `body_too_large`) once it has received this many bytes. 16 MiB, as the
 * stdio line limit.
 */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** How long one query may take on the client, from the call to the whole reply body. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** How long `connectHttpProvider` waits for the `handshake_ack`. */
export const HANDSHAKE_TIMEOUT_MS = 10_000;

/** Keep-alive connections the client keeps open to one provider. */
export const MAX_CONNECTIONS = 8;

/** How long an idle keep-alive connection stays open on the client. */
export const KEEP_ALIVE_TIMEOUT_MS = 4_000;

/** How much of a body that is not an envelope is quoted in an error (characters). */
export const BODY_EXCERPT_CHARS = 200;

/**
 * Addresses whose last handshake's family the server remembers (for requests
 * without the `ocp-protocol-version` header); the oldest is
 * forgotten first.
 */
export const MAX_FAMILY_PEERS = 1024;

export { positiveLimit } from "@ocp/types";
