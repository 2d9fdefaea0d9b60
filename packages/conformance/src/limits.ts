/**
 * Every bound of the suite, as a named constant with a finite default. Each
 * wait the suite makes is bounded by one of these, so a provider that hangs
 * yields a failing check with evidence, never a hung suite. Each can be
 * overridden per run (see `RunOptions`); none of them reads 0 as "unlimited".
 */
import { EXIT_DRAIN_MS, MAX_LINE_BYTES } from "@ocp/transport-stdio/internal";

/** Longest NDJSON line read from a stdio provider: the transport's own limit (16 MiB). */
/**
 * After a stdio provider exits, how long the suite still reads its stdout for
 * lines written just before the exit: the transport's own bound (250 ms).
 */
export { EXIT_DRAIN_MS, MAX_LINE_BYTES };

/** After `ocp-inspect` has printed its verdict, how long it lets stray handles close before it exits. */
export const CLI_EXIT_GRACE_MS = 100;

/**
 * How long a provider may take to answer a `handshake` (ours or a
 * foreign-family one), spawn included: the stdio transport's own bound, so a
 * provider a host accepts is not failed for starting slowly.
 */
export const HANDSHAKE_TIMEOUT_MS = 10_000;

/** How long a provider may take to answer one query. */
export const QUERY_TIMEOUT_MS = 10_000;

/**
 * How long a stdio provider may take to exit after `shutdown` (R2). Past it,
 * the check fails and the suite closes the provider's stdin, then kills its
 * process group. Also the bound on an HTTP `shutdown` POST and on an
 * in-process `shutdown()`.
 */
export const SHUTDOWN_TIMEOUT_MS = 3_000;

/** After stdin closes on a provider that ignored `shutdown`, how long the suite watches for its exit. */
export const EOF_GRACE_MS = 500;

/** How long the suite waits for a provider's process group to be gone after SIGKILL. */
export const KILL_WAIT_MS = 2_000;

/**
 * After each malformed input (R1), how long the suite waits for a reaction
 * (an `error` reply, or an exit) before it sends the next one. A provider may
 * stay silent: silence is allowed, dying is not.
 */
export const MALFORMED_SETTLE_MS = 200;

/**
 * Most messages the suite reads from one stdio connection. The suite sends a
 * dozen requests; a provider that floods its stdout past this is cut off
 * (its process group killed) and the flood is reported, so memory stays bounded.
 */
export const MAX_MESSAGES_PER_CONNECTION = 1_000;

/** Largest HTTP response body the suite reads from a provider (16 MiB); more is a failure. */
export const MAX_HTTP_BODY_BYTES = 16 * 1024 * 1024;

/** Latest bytes of a stdio provider's stderr kept for evidence. */
export const MAX_STDERR_BYTES = 8 * 1024;

/** cost-truth: a declared cost above this multiple of the count is reported (never failed). */
export const COST_TRUTH_OVER_RATIO = 2;

/** Most items (frames, messages, errors) one evidence string names before it says "and N more". */
export const MAX_EVIDENCE_ITEMS = 5;

/** Longest excerpt of provider output quoted in evidence, in characters. */
export const MAX_EXCERPT_CHARS = 120;

/** The probe query's budget: the Rust reference's sample query. */
export const PROBE_MAX_TOKENS = 4_096;
/** The probe query's frame limit: the Rust reference's sample query. */
export const PROBE_MAX_FRAMES = 8;

/** How many pipelined queries the correlation check sends at once. */
export const CORRELATION_PROBES = 3;

/** Checks an overriding bound: a positive, finite integer. */
export { positiveLimit as positiveBound } from "@ocp/types";

/** contextgraph/1 verify-honesty: most frame identities one `verify` request carries. */
export const MAX_VERIFY_IDENTITIES = 64;

/** contextgraph/1 host harness: how long one run of the host command may take before it is killed. */
export const HOST_RUN_TIMEOUT_MS = 30_000;

/** contextgraph/1 host harness: most bytes of a host command's stdout and stderr kept (each). */
export const MAX_HOST_OUTPUT_BYTES = 1024 * 1024;
