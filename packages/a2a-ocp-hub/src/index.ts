/**
 * `@ocp/a2a-ocp-hub`: the a2a+ocp hub. `OCPHub.start()` listens for agents
 * over WebSocket, checks and routes every message, and commits durable ones
 * to its store (SQLite by default) before acknowledging. Hubs clustered on
 * NATS JetStream are behind `@ocp/a2a-ocp-hub/nats`.
 *
 * Every limit is a member of `LIMITS`; the helpers other packages share are
 * at `./internal`, which semver does not cover.
 */

// What the hub lets an observer see, defined once below the hub and the dashboard.
export type {
  AgentLeftEvent,
  AgentRegisteredEvent,
  HubEvent,
  HubListener,
  HubStats,
  MessageAcceptedEvent,
  MessageRefusedEvent,
} from "@ocp/a2a-ocp-messaging/observe";
export type { ChainVerdict } from "./audit-chain.js";
export { SqliteAuditLog, type SqliteAuditLogOptions } from "./audit-sqlite.js";
export type { BudgetKind, BudgetSpend } from "./budget.js";
export type {
  BusDelivery,
  BusSink,
  ClusterBroadcast,
  ClusterRouting,
  EventNotifier,
  HubBus,
  SharedBudgets,
} from "./bus.js";
export { OCPHub } from "./hub.js";
export { loadHubIdentity } from "./hub-identity.js";
export type { HubSelf } from "./hub-self.js";
/**
 * Every limit of `@ocp/a2a-ocp-hub`, by name (`LIMITS.NAME`): the finite defaults the
 * package enforces, each documented where it is defined (`src/limits.ts`) and
 * listed in the README's limits table. A module namespace: no member can be
 * reassigned and none added.
 */
export * as LIMITS from "./limits.js";
export { MemoryBus } from "./memory-bus.js";
export type { HubMetrics } from "./metrics.js";
export {
  type HubMetricsServer,
  type HubMetricsServerOptions,
  startHubMetrics,
} from "./metrics-server.js";
export { DEFAULT_HUB_DB_PATH, type OCPHubOptions } from "./options.js";
export { SqliteStore, type SqliteStoreOptions } from "./sqlite-store.js";
export type {
  CommitOutcome,
  ExpiredDelivery,
  HubStore,
  PendingDelivery,
  StoredMessage,
} from "./store.js";
export type { SubscriptionTable } from "./subscriptions.js";
export type { DeliveryTrace, HubTracing } from "./telemetry.js";
export { type WarmUpOptions, type WarmUpReport, warmUpHub } from "./warmup.js";
