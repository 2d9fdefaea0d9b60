/**
 * Every limit of the hub and its client, each a named constant with a finite
 * default. Options that override one never accept 0 or Infinity.
 */

/**
 * Bytes a hub frame adds around a forwarded message (`ocp.hub.deliver` with
 * its sequence number). The hub accepts messages up to the transport's payload
 * limit minus this, so a delivery frame always fits the recipient's limit.
 */
export const HUB_FRAME_OVERHEAD_BYTES = 1024;

/** Most stored messages replayed to a reconnecting agent per page (the next page waits for drain). */
export const HUB_REPLAY_PAGE_SIZE = 256;

/** Most durable messages committed in one SQLite transaction (group commit per event-loop turn). */
export const HUB_COMMIT_BATCH_MAX = 512;

/** Interval of the sweep that deletes expired messages and deliveries, ms. */
export const HUB_SWEEP_INTERVAL_MS = 30_000;

/** Most event subscriptions one agent may hold at the hub. */
export const HUB_MAX_SUBSCRIPTIONS_PER_AGENT = 256;

/** Most event types in one subscription. */
export const HUB_MAX_EVENT_TYPES_PER_SUBSCRIPTION = 64;

/** Interval at which the hub prunes its audit log to the log's retention, ms. */
export const HUB_AUDIT_PRUNE_INTERVAL_MS = 60_000;

/** Most bytes of card JSON one §7.3 discovery result carries (well under any frame limit). */
export const HUB_DISCOVERY_MAX_BYTES = 256 * 1024;

/**
 * Length of one agent's budget window, ms. Every budget below counts per
 * agent id (not per connection: reconnecting does not refill it), in fixed
 * windows of this length.
 */
export const HUB_BUDGET_WINDOW_MS = 60_000;

/** Most §7.3 discovery queries one agent may send per window (more are refused `rate_limited`). */
export const HUB_DISCOVERY_QUERIES_PER_MINUTE = 60;

/** Most `ocp.hub.lookup` frames one agent may send per window (more are refused `rate_limited`). */
export const HUB_LOOKUPS_PER_MINUTE = 600;

/**
 * Most `ocp.hub.delivered` confirmations one agent may send per window. A
 * client confirms at most once per 64 deliveries or 250 ms; more are refused
 * `rate_limited` (a later confirmation covers what an earlier one would have).
 */
export const HUB_CONFIRMATIONS_PER_MINUTE = 12_000;

/**
 * Most bare §7.2 `capability.announce` frames (no envelope, unsigned) one
 * agent may send per window; each is answered with a `capability.confirm`
 * the hub signs. More are refused `rate_limited`.
 */
export const HUB_BARE_ANNOUNCES_PER_MINUTE = 60;

/**
 * Most refused frames one agent may send per window: malformed or unknown
 * control frames and messages the hub refuses (parse, schema, signature,
 * freshness, replay, rate). Each within it is answered with its reason and
 * audited; past it, refused frames are answered `rate_limited` and only the
 * first of the window is audited.
 */
export const HUB_REFUSALS_PER_MINUTE = 120;

/**
 * Most frames one agent may send past an exhausted budget within one window
 * before the hub closes its connection (4008, policy violation). The count
 * is per agent: a reconnect inside the window is closed at its next
 * over-budget frame.
 */
export const HUB_OVER_BUDGET_FRAMES_BEFORE_CLOSE = 60;

/**
 * Upper bounds (seconds) of the buckets of `ocp_hub_message_accept_delay_seconds`,
 * the time from a message's signed timestamp to its acceptance (`--metrics`).
 */
export const HUB_METRICS_DELAY_BUCKETS_SECONDS: readonly number[] = [
  0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/**
 * Most distinct refusal codes the metrics endpoint labels one by one; codes
 * past it (none today: the hub sends fewer) count under `code="other"`, so
 * the exposition stays bounded.
 */
export const HUB_METRICS_MAX_CODES = 64;

/** Time a metrics request may take to send its headers, ms; slower ones are closed. */
export const HUB_METRICS_REQUEST_TIMEOUT_MS = 10_000;

/**
 * Bucket bounds, seconds, of the per-hop latency histogram
 * (`ocp_hub_hop_duration_seconds`: verify, commit, cluster, deliver): from a
 * tenth of a millisecond (a signature check) to ten seconds (a stalled store).
 */
export const HUB_METRICS_HOP_BUCKETS_SECONDS: readonly number[] = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/**
 * Most accept spans (tracing on) open at once: a message's span stays open
 * from its arrival until its ack or refusal; past this many the oldest is
 * ended as `abandoned`, so a hub never holds spans without bound.
 */
export const HUB_TRACE_MAX_OPEN_SPANS = 10_000;

/**
 * Signed durable messages `ocp-hub` carries through a private hub of its own
 * before it listens (`--warmup N`, 0 to skip; `warmUpHub`): enough for V8 to
 * compile the accept path, so the first agents do not pay for it.
 */
export const HUB_WARMUP_MESSAGES = 2000;

/** Most messages a warm-up may be asked to carry (`--warmup N` above it is refused). */
export const HUB_WARMUP_MAX_MESSAGES = 100_000;

/** Messages the warm-up's sender keeps unacknowledged at once, as a busy agent would. */
export const HUB_WARMUP_IN_FLIGHT = 16;

/** Time a warm-up may take, ms; past it the warm-up stops and the hub starts anyway. */
export const HUB_WARMUP_TIMEOUT_MS = 30_000;
