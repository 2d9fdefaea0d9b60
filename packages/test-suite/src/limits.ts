/**
 * Every bound of the suite, as a named constant with a finite default. Each
 * wait the suite makes is bounded by one of these, so a target that hangs
 * yields a failing check with evidence, never a hung suite.
 */

/** How long one check may take in all (`--timeout` overrides it). */
export const CHECK_TIMEOUT_MS = 30_000;

/** How long the suite waits for one expected answer (ack, reject, delivery, close). */
export const ANSWER_TIMEOUT_MS = 10_000;

/**
 * How long the suite watches for something that must NOT arrive (a forwarded
 * forgery, a private node) after a marker sent behind it has arrived. The
 * marker is the real proof (the hub forwards in order); this is a margin.
 */
export const QUIET_MS = 200;

/** After `ocp-test` has printed its verdict, how long it lets stray handles close before it exits. */
export const CLI_EXIT_GRACE_MS = 100;

/** §12.3: messages per agent per minute. */
export const SPEC_MESSAGES_PER_MINUTE = 100;
/** §12.3: broadcast messages per agent per minute. */
export const SPEC_BROADCASTS_PER_MINUTE = 10;
/** §12.3: collective queries per agent per minute. */
export const SPEC_COLLECTIVE_QUERIES_PER_MINUTE = 5;

/**
 * What the zip bomb of the agent-compression check inflates to, in bytes:
 * a valid stream padded with JSON whitespace, sent gzip-compressed (about
 * 90 KB on the wire). Far past the reference's `MAX_DECOMPRESSED_BYTES`
 * (4 MiB), so an agent with any sane cap refuses it.
 */
export const ZIP_BOMB_INFLATED_BYTES = 64 * 1024 * 1024;

/** The size-limits check sends one message of this many bytes (past the reference's 1 MiB). */
export const OVERSIZED_MESSAGE_BYTES = 2 * 1024 * 1024;

/** Most frames the suite keeps from one connection; a flood past it is cut off and reported. */
export const MAX_FRAMES_PER_CONNECTION = 10_000;

/** Longest excerpt of target output quoted in evidence, in characters. */
export const MAX_EXCERPT_CHARS = 160;

/** How long `--agent-cmd` waits for the started agent to register at the suite's hub. */
export const AGENT_START_TIMEOUT_MS = 20_000;

/** After SIGTERM to the agent command's process group, how long before SIGKILL. */
export const CHILD_KILL_GRACE_MS = 2_000;

/** How much of the agent command's stderr is kept, in characters. */
export const STDERR_TAIL_CHARS = 4_000;

/** How much of that tail a failing check quotes, in characters. */
export const STDERR_QUOTE_CHARS = 600;

/** The `timeout` of the suite's collective queries, ms (the spec's example, §5.2.1). */
export const QUERY_TIMEOUT_MS = 5_000;

/** After an agent's first vote, how long the suite watches for a second one. */
export const SECOND_VOTE_WATCH_MS = 1_000;

/** The slow-consumer check's messages to the stalled agent: how many, and the size of each. */
export const SLOW_CONSUMER_MESSAGES = 40;
export const SLOW_CONSUMER_MESSAGE_BYTES = 768 * 1024;
/** Every this many large messages, a marker goes to another agent, which must receive it. */
export const SLOW_CONSUMER_MARKER_EVERY = 8;
/** After the stalled agent reads again, how long without a frame ends its reading. */
export const SLOW_CONSUMER_SETTLE_MS = 1_500;

/**
 * The federation-flood check's fixture peer sends this many forwarded
 * messages of {@link FEDERATION_FLOOD_FRAME_BYTES} each at once: 80 MB, above
 * ocp-hub's default byte budget of a peer organisation (64 MiB per minute),
 * so a hub that keeps one must refuse part of them.
 */
export const FEDERATION_FLOOD_FRAMES = 80;
export const FEDERATION_FLOOD_FRAME_BYTES = 1_000_000;

/** How long the federation-flood check waits for the hub's first over-budget refusal, ms. */
export const FEDERATION_FLOOD_WAIT_MS = 20_000;
