/** Limits of the A2A endpoint's authentication, each a named constant with a finite default. */

/** Longest lifetime (`exp - iat`) of a signed request token, seconds. */
export const MAX_REQUEST_TOKEN_LIFETIME_SECONDS = 300;
/** Lifetime of the signed request tokens this package makes, seconds. */
export const REQUEST_TOKEN_LIFETIME_SECONDS = 60;
/** Clock difference tolerated between caller and server, ms. */
export const REQUEST_TOKEN_CLOCK_SKEW_MS = 30_000;
/** Largest `Authorization` credential read, bytes. */
export const MAX_CREDENTIAL_BYTES = 4096;
/** Longest `jti` of a signed request token, characters. */
export const MAX_REQUEST_TOKEN_ID_LENGTH = 128;
/** Signed request tokens remembered against replay (fails closed when full). */
export const REQUEST_REPLAY_MAX_ENTRIES = 100_000;
/** Shortest operator bearer token accepted, characters. */
export const MIN_BEARER_TOKEN_LENGTH = 32;
