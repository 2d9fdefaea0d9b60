import type {
  AgentIdentity,
  AgentProfile,
  AuditLog,
  OcpFeature,
  RateLimitOptions,
  Visibility,
} from "@ocp/a2a-ocp-messaging";
import type { LimitOptions } from "@ocp/transport-ws";
import type { HubBus } from "./bus.js";
import type { HubStore } from "./store.js";
import type { HubTracing } from "./telemetry.js";

/** The default SQLite file of a hub, relative to the working directory. */
export const DEFAULT_HUB_DB_PATH = "ocp-hub.sqlite";

/** Options of {@link OCPHub}. Every one has a default. */
export interface OCPHubOptions {
  /** Interface to listen on: `127.0.0.1` (loopback) by default. */
  host?: string;
  /** Port; 0 (the default) picks a free one. */
  port?: number;
  /** WebSocket path; any by default. */
  path?: string;
  /**
   * Browser origins (`https://host[:port]`) whose pages may connect. An upgrade
   * carrying an `Origin` header (every browser sends one) is refused with HTTP
   * 403 unless listed; none by default. Non-browser agents send none.
   */
  allowedOrigins?: readonly string[];
  /** SQLite file of the default store ({@link DEFAULT_HUB_DB_PATH}); ignored when `store` is given. */
  dbPath?: string;
  /** `synchronous` of the default SQLite store: `FULL` (default) or `NORMAL`. */
  synchronous?: "FULL" | "NORMAL";
  /** Durable storage; a {@link SqliteStore} on `dbPath` by default. The hub closes it on `close`. */
  store?: HubStore;
  /** Delivery to connected agents; a {@link MemoryBus} by default. */
  bus?: HubBus;
  /**
   * Verify the signature of every message the hub forwards (default true).
   * Messages the hub acts on or stores (durable ones, event subscriptions)
   * are verified whatever this says; recipients verify everything anyway (§8.3).
   */
  verifyForwarded?: boolean;
  /** §12.3 per-sender rate limits (defaults: 100 messages, 10 broadcasts, 5 collective queries a minute); `false` for none. */
  rateLimits?: RateLimitOptions | false;
  /**
   * Allow-list: signed profiles (verified at construction), or
   * `{ profile, team }` entries. When given, an agent is admitted only if its
   * id and key match one of them, and its team is the entry's (`team`, else
   * the listed profile's `team` field) — never what the agent announces.
   */
  allowedProfiles?: Iterable<unknown>;
  /** Admission predicate, after the announcement is verified (and the allow-list passed). */
  allow?: (profile: AgentProfile) => boolean;
  /**
   * The team of an agent for `team` visibility. By default the team its
   * allow-list entry gives; without an allow-list (open registration) no
   * agent has a team, so `team` content reaches only its author and `sharedWith`.
   */
  teamOf?: (agentId: string) => string | undefined;
  /** What an absent node `visibility` means: `workspace` by default. */
  defaultVisibility?: Visibility;
  /** Largest accepted message in bytes; by default the transport limit minus the delivery frame. */
  maxMessageBytes?: number;
  /** Clock-skew bound and expiry grace, ms (default `MAX_CLOCK_SKEW_MS`). */
  maxClockSkewMs?: number;
  /** TTL of a message without one, s (default `DEFAULT_TTL_SECONDS`). */
  defaultTtlSeconds?: number;
  /** Most ids the replay window remembers (default `REPLAY_WINDOW_MAX_ENTRIES`). */
  replayWindowEntries?: number;
  /** Sweep interval for expired deliveries, ms (default `HUB_SWEEP_INTERVAL_MS`). */
  sweepIntervalMs?: number;
  /** WebSocket limits (payload size, outbound buffer per connection, heartbeats, connections). */
  transport?: LimitOptions;
  /** Clock, ms; `Date.now` by default. */
  now?: () => number;
  /** Where the hub reports internal failures (store errors); stderr by default. */
  onError?: (error: unknown) => void;
  /**
   * The hub's own identity: it signs `capability.confirm` and
   * `ocp.event.notification` with it. Generated at start (as `a2a://ocp-hub`)
   * when absent; pass one to keep the key across restarts.
   */
  identity?: AgentIdentity;
  /** The §7.1 features the hub confirms (§7.2); all six by default. */
  features?: readonly OcpFeature[];
  /**
   * §3 audit log: what the hub accepted, refused (with the reason), delivered
   * and let expire, appended here (e.g. a {@link SqliteAuditLog}); none by
   * default. The hub prunes it to its retention and closes it on `close`.
   */
  audit?: AuditLog;
  /**
   * OpenTelemetry traces of each message's path through the hub (accept,
   * verify, commit, NATS receive, deliver), linked to the sending agent's
   * span through W3C `traceparent` beside the signed message (docs/tracing.md).
   * Off by default: `true` uses the globally registered tracer provider, or
   * pass one. Only agents that announce `ocpTrace` exchange trace contexts.
   */
  tracing?: HubTracing;
}
