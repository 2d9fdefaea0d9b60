export {
  type DeliveredMessage,
  type DroppedMessage,
  HubClient,
  type HubClientEvents,
  type HubClientOptions,
  type SendReceipt,
} from "../client/hub-client.js";
export { CommitQueue, type PendingCommit } from "./acks.js";
export { buildAnnouncement, type VerifiedAnnouncement, verifyAnnouncement } from "./auth.js";
export type {
  BusDelivery,
  BusSink,
  ClusterBroadcast,
  ClusterRouting,
  HubBus,
} from "./bus.js";
export { checkInbound, type HubCheckCode, type HubCheckOptions } from "./check.js";
export { type HubStats, OCPHub } from "./hub.js";
export * from "./limits.js";
export { MemoryBus } from "./memory-bus.js";
// Hubs clustered on NATS JetStream (issue 11).
export * from "./nats/index.js";
export { DEFAULT_HUB_DB_PATH, type OCPHubOptions } from "./options.js";
export {
  AgentControlSchema,
  DELIVER_PREFIX,
  encodeDeliver,
  encodeHubControl,
  HUB_ERROR_CODES,
  HUB_FRAME_PREFIX,
  HUB_TYPES,
  type HubAck,
  HubAckSchema,
  type HubAnnounce,
  HubAnnounceSchema,
  HubControlSchema,
  type HubErrorCode,
  type HubReject,
  HubRejectSchema,
  isHubFrame,
  parseDeliver,
} from "./protocol.js";
export { isDurable, isDurableType, type Route, type RouteContext, route } from "./router.js";
export { SqliteStore, type SqliteStoreOptions } from "./sqlite-store.js";
export type { CommitOutcome, HubStore, PendingDelivery, StoredMessage } from "./store.js";
export {
  type EventSubscription,
  matchesEventType,
  matchesFilters,
  SubscriptionTable,
} from "./subscriptions.js";
export {
  accessControlledNodes,
  mayReceive,
  maySee,
  type NodeAccess,
  type VisibilityPolicy,
} from "./visibility.js";
