/**
 * `@ocp/a2a-ocp-agent/internal`: what the other packages of the OCP monorepo
 * share with this one and a user does not write against (wire plumbing,
 * helpers, the individual limit constants). Not covered by semver: any
 * release may change or remove a name here. Use the root entry.
 *
 * @packageDocumentation
 * @internal
 */

export { DEFAULT_COLLECTIVE_TIMEOUT_MS } from "./agent-collective.js";
export type { EdgeConflict } from "./agent-knowledge.js";
export { authorize, relayable, type SignedItem, signersOf, storedAuthor } from "./authority.js";
export { PresenceTable } from "./awareness.js";
export { ACCEPTED_COMPRESSION, COMPRESSED_TYPES, cardCompression } from "./compression.js";
export {
  countVote,
  countVotes,
  expire,
  type TallyResult,
  tally,
  type VoteMessage,
  type VoteRejection,
  verifyOutcome,
} from "./consensus.js";
export { Waiters } from "./emitter.js";
export { agentError } from "./errors.js";
export { matchesEventFilters, matchesEventSubscription, matchesEventType } from "./events.js";
export {
  type ApplyResult,
  applyRemote,
  type ChangeRecord,
  deleteLocal,
  type ItemKind,
  type ItemSigner,
  putLocalEdge,
  putLocalNode,
  snapshot,
} from "./graph.js";
export { keysInGrace, loadRetiredKeys, saveRetiredKeys } from "./key-rotation.js";
export { type Lifetime, MESSAGE_LIFETIMES, messageTtl } from "./lifetimes.js";
export * from "./limits.js";
export {
  type ConflictType,
  canonicalHash,
  compareForResolution,
  type MergeConflict,
  type MergeOutcome,
  mergeItem,
  type VersionedItem,
} from "./merge.js";
export { PEER_FEATURES } from "./peer.js";
export { findPeerCards } from "./peer-control.js";
export { messageDigest, receiptOf } from "./receipt.js";
export { Outbound, sealingPlan } from "./sealing.js";
export { RecipientKeys } from "./sealing-keys.js";
export { excerptOf, searchNodes } from "./search.js";
export { matchesFilters, nodeDomains, SubscriptionTable } from "./subscriptions.js";
export {
  deltaPages,
  pageChecksum,
  pageItems,
  requestVector,
  SyncReceiver,
  verifyPage,
} from "./sync.js";
export { isSealed, Opener } from "./unsealing.js";
export { compareVectors, mergeVectors, type Ordering, vectorSum } from "./version-vector.js";
