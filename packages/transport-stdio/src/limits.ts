/**
 * Every limit of the stdio transport, with a finite default. Each one can be
 * overridden by an option of the same meaning; none of them reads 0 as
 * "unlimited" (a non-positive or non-finite override is rejected).
 */

/**
 * Longest NDJSON line, in bytes, newline excluded: 16 MiB. Enforced while a
 * line accumulates, so a peer that streams without a newline is cut off
 * before the reader holds more than this many bytes of it.
 */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** How long the host waits for `handshake_ack` after spawning a provider. */
export const HANDSHAKE_TIMEOUT_MS = 10_000;

/** How long one query may take, from the call to its reply, queue time included. */
export const QUERY_TIMEOUT_MS = 30_000;

/**
 * How long `shutdown()` lets the child exit on its own after the `shutdown`
 * envelope before its whole process group is killed (SIGKILL). Also the
 * bound `serveStdio` gives in-flight queries before it exits.
 */
export const SHUTDOWN_GRACE_MS = 2_000;

/** How much of the child's stderr is kept for diagnostics (the latest bytes). */
export const MAX_STDERR_BYTES = 64 * 1024;

/**
 * Most characters of a crashed child's last stderr line quoted in the
 * `provider_crashed` message (before escaping; longer lines are cut, `…`).
 */
export const MAX_CRASH_REASON_CHARS = 300;

/**
 * Most queries in flight at once to a provider that declares
 * `capabilities.correlation`; further queries wait in order. A plain provider
 * always gets one at a time.
 */
export const MAX_IN_FLIGHT = 64;

/**
 * After a child exits, how long the host still reads its stdout for replies
 * written just before the exit (a grandchild holding the pipe open cannot
 * keep the host waiting longer).
 */
export const EXIT_DRAIN_MS = 250;

/**
 * Most lines that wait for the end of a callback's promise jobs before they
 * are written: lines written together leave in one system call, but a batch
 * this long leaves at once, so that on a machine of few cores the peer starts
 * on the first queries (or the host on the first replies) while the rest are
 * still being made, instead of the two processes taking turns.
 */
export const LINES_PER_WRITE = 8;
