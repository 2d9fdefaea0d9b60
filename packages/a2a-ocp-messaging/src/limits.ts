/**
 * Every limit of the a2a+ocp message layer, in one place. Each is a named
 * constant with a finite default; options that override one never accept 0
 * or Infinity as "unlimited". Tests pin each limit at its edge.
 */

/** Largest inbound message, in UTF-8 bytes, before anything else is done with it. */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

/**
 * Deepest nesting of arrays and objects accepted in a message. Canonical JSON
 * (RFC 8785) and schema checks walk the value recursively; the bound keeps a
 * hostile `[[[[...]]]]` from exhausting the stack.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Largest payload after decompression (§12.2), in bytes. Inflation stops as
 * soon as the output would pass it, so a small "zip bomb" costs at most this
 * much memory.
 */
export const MAX_DECOMPRESSED_BYTES = 4 * 1024 * 1024;

/** Payloads whose JSON is at least this many bytes are compressed when compression is asked for. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/** TTL (seconds) applied to a message that carries none (§4.1 `ttl` is optional). */
export const DEFAULT_TTL_SECONDS = 300;

/**
 * Largest `ttl` (seconds) a message may carry. It bounds how long the replay
 * window must remember an id, and so its memory.
 */
export const MAX_TTL_SECONDS = 86_400;

/** How far a message's `timestamp` may be ahead of the receiver's clock, and the grace after expiry. */
export const MAX_CLOCK_SKEW_MS = 30_000;

/** Most message ids the replay window remembers exactly at once. */
export const REPLAY_WINDOW_MAX_ENTRIES = 100_000;

/**
 * Bytes of Bloom filters the replay window may hold for the ids it had to
 * evict (16 MiB: 32 filters of 512 KiB, each for one hour of deadlines and
 * about 420,000 ids at a 1% false-positive rate).
 */
export const REPLAY_FILTER_MAX_BYTES = 16 * 1024 * 1024;

/** Size of one replay Bloom filter, and the span of deadlines it covers. */
export const REPLAY_FILTER_BYTES = 512 * 1024;
export const REPLAY_FILTER_SPAN_MS = 3_600_000;

/** The refill period of every rate limit bucket (§12.3 states its limits per minute). */
export const RATE_LIMIT_WINDOW_MS = 60_000;

/** §12.3: messages per sender per minute. */
export const RATE_LIMIT_MESSAGES_PER_MINUTE = 100;

/** §12.3: broadcast messages (`to: "broadcast"`) per sender per minute. */
export const RATE_LIMIT_BROADCASTS_PER_MINUTE = 10;

/** §12.3: `ocp.collective.query` messages per sender per minute. */
export const RATE_LIMIT_COLLECTIVE_QUERIES_PER_MINUTE = 5;

/**
 * Most senders whose buckets the rate limiter keeps. Past it the least
 * recently seen sender's buckets are dropped; a bucket idle for a whole window
 * is full anyway, so only a sender idle for less than that gains anything.
 */
export const RATE_LIMIT_MAX_SENDERS = 10_000;

/** Most recipients in a `to` list or in `recipientKeys` of an encrypted payload. */
export const MAX_RECIPIENTS = 1024;

/** Longest `a2a://` agent URI. */
export const MAX_AGENT_URI_LENGTH = 512;

/**
 * Longest message `id`. We send UUID v4 (36 characters); a peer may send any
 * id of visible ASCII up to this length (the specification's own examples
 * use ids such as `msg-abc123`).
 */
export const MAX_MESSAGE_ID_LENGTH = 128;

/** Longest identifier (stream, subscription, query, proposal, sync ids, `correlation_id`, ...). */
export const MAX_ID_LENGTH = 256;

/** Longest message `type` (custom types included). */
export const MAX_MESSAGE_TYPE_LENGTH = 128;

/** Most knowledge streams in one batched `ocp.knowledge.stream` (§12.1). */
export const MAX_BATCH_ITEMS = 256;

/**
 * Most Ed25519 public keys the OpenSSL (node:crypto) backend keeps as parsed
 * key objects. Parsing a key costs about as much as a verification, so the
 * hot path reuses them; past the bound the oldest is dropped.
 */
export const NATIVE_KEY_CACHE_MAX_ENTRIES = 4096;

/** Most entries of a §7.3 discovery query's `protocols` or `features`. */
export const DISCOVERY_MAX_TERMS = 32;

/** Most cards one §7.3 discovery result carries (and a query's default `limit`). */
export const DISCOVERY_MAX_CARDS = 256;

/**
 * Longest message id an audit entry stores, characters. The id of a refused
 * message is whatever the sender wrote; a longer one is stored cut, with a
 * marker (`…[+N chars]`), never whole. The same marker bounds every field below.
 */
export const AUDIT_MAX_ID_CHARS = 256;

/** Longest message type an audit entry stores, characters. */
export const AUDIT_MAX_TYPE_CHARS = 128;

/** Longest agent URI (`from`, each of `to`) an audit entry stores, characters. */
export const AUDIT_MAX_AGENT_CHARS = 512;

/** Most recipients an audit entry stores (the rest are counted in one marker entry). */
export const AUDIT_MAX_RECIPIENTS = 1024;

/** Longest error code an audit entry stores, characters. */
export const AUDIT_MAX_CODE_CHARS = 64;

/** Longest refusal reason an audit entry stores, characters (a reason may quote input). */
export const AUDIT_MAX_REASON_CHARS = 1000;

/**
 * §8.4 most access entries a sealed message's `ocpSealed.access` lists (the
 * distinct `createdBy`/`visibility`/`sharedWith` triples of what it carries).
 */
export const MAX_SEALED_ACCESS_ENTRIES = 256;

/**
 * Longest `traceparent` (W3C Trace Context) a hub frame may carry,
 * characters. Version `00` is 55 characters; a later version may append
 * fields, so a little more is let through, and anything longer is refused
 * (`hub_frame_invalid`) rather than read.
 */
export const TRACEPARENT_MAX_CHARS = 256;
