/**
 * Every limit of the bridge, with a finite default. Each can be overridden by
 * an option or a CLI flag of the same meaning; none reads 0 as "unlimited"
 * (a non-positive or non-finite override is rejected).
 */

/** How long connecting to an MCP server (spawn, `initialize`) or to a provider (handshake) may take. */
export const CONNECT_TIMEOUT_MS = 10_000;

/** How long one MCP request (`resources/list`, `resources/read`, `tools/call`) may take. */
export const MCP_REQUEST_TIMEOUT_MS = 30_000;

/** How long one Open Context query, from `query_context`, may take. */
export const PROVIDER_QUERY_TIMEOUT_MS = 30_000;

/** How long the MCP client may take to answer a consent request (elicitation). */
export const CONSENT_TIMEOUT_MS = 120_000;

/** How long a child (MCP server or provider) gets to exit before its process group is killed. */
export const SHUTDOWN_GRACE_MS = 2_000;

/** Longest JSON-RPC line read from an MCP server's stdout, in bytes. */
export const MAX_MCP_LINE_BYTES = 16 * 1024 * 1024;

/**
 * Longest JSON-RPC line `ocp-to-mcp` reads from its MCP client on stdin, in
 * bytes (the SDK's stdio default); a longer one ends it with exit status 1.
 */
export const MAX_CLIENT_LINE_BYTES = 10 * 1024 * 1024;

/**
 * How much of an MCP server's stderr is kept for error messages, in
 * characters: its first and its latest this many.
 */
export const MAX_STDERR_BYTES = 16 * 1024;

/**
 * Longest excerpt of a failed MCP server's stderr shown in an error message,
 * in characters: the lines naming the cause, never a cut through a stack trace.
 */
export const MAX_STDERR_SHOWN_CHARS = 1_000;

/** Most resources of an MCP server indexed for ranking; further pages are not read. */
export const MAX_RESOURCES = 1_000;

/**
 * A resource's contents are read into the ranking index only when it
 * declares a `size` of at most this many bytes ("when cheap"); otherwise it
 * is ranked by its name, title, description and URI.
 */
export const MAX_INDEXED_RESOURCE_BYTES = 64 * 1024;

/**
 * Least relevance, in [0, 1], of a resource `ocp-from-mcp` returns: its BM25
 * score over the goal's best, times the share of the goal's terms it matches.
 * A weaker match is left out rather than returned to fill the budget.
 */
export const MIN_RELEVANCE = 0.15;

/** Most resources whose contents are read while indexing. */
export const MAX_INDEXED_READS = 64;

/** Longest text content a frame carries, in characters; longer content is dropped, not cut. */
export const MAX_FRAME_CHARS = 1_000_000;

/** `max_tokens` of `query_context` when the caller gives none. */
export const DEFAULT_MAX_TOKENS = 4_096;

/** `max_frames` of `query_context` when the caller gives none. */
export const DEFAULT_MAX_FRAMES = 8;

/** Largest `max_frames` `query_context` accepts. */
export const MAX_QUERY_FRAMES = 64;

/** Longest `goal` `query_context` accepts, in characters. */
export const MAX_GOAL_CHARS = 8_192;

/** Most frames `ocp-to-mcp` keeps listed as MCP resources (the latest ones). */
export const MAX_LISTED_FRAMES = 256;
