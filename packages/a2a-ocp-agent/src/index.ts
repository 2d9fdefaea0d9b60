/**
 * `@ocp/a2a-ocp-agent`: the a2a+ocp agent runtime (§5): knowledge, sync,
 * subscriptions, collective queries, consensus and awareness, over a hub
 * (`hubLink` on a `HubClient`) or an in-memory network. The in-memory graph
 * and consensus store load no native module; the SQLite ones are behind
 * `@ocp/a2a-ocp-agent/sqlite` (better-sqlite3, an optional peer).
 */

export { OCPAgent } from "./agent.js";
export {
  type CollectiveQueryOptions,
  type CollectiveResult,
  DEFAULT_COLLECTIVE_TIMEOUT_MS,
} from "./agent-collective.js";
export type { ConsensusDecision, ProposeOptions } from "./agent-consensus.js";
export type { EdgeConflict } from "./agent-knowledge.js";
export type { SyncOptions, SyncReport } from "./agent-sync.js";
export {
  DEFAULT_VISIBILITY_POLICY,
  type OCPAgentEvents,
  type OCPAgentOptions,
} from "./agent-types.js";
export {
  authorize,
  type KnowledgeRefusal,
  type RefusalReason,
  relayable,
  type SignedItem,
  signersOf,
  storedAuthor,
} from "./authority.js";
export { PresenceTable } from "./awareness.js";
export {
  ACCEPTED_COMPRESSION,
  announceCompression,
  COMPRESSED_TYPES,
  type CompressionOptions,
  cardCompression,
} from "./compression.js";
export {
  type ConsensusStore,
  countVote,
  countVotes,
  expire,
  MemoryConsensusStore,
  type ProposalState,
  type TallyResult,
  tally,
  type VoteMessage,
  type VoteRejection,
  verifyOutcome,
} from "./consensus.js";
export { Waiters } from "./emitter.js";
export { AGENT_ERROR_CODES, type AgentErrorCode, agentError } from "./errors.js";
export { matchesEventFilters, matchesEventSubscription, matchesEventType } from "./events.js";
export {
  type ApplyResult,
  applyRemote,
  type ChangeRecord,
  deleteLocal,
  type ItemKind,
  type ItemSigner,
  type KnowledgeGraph,
  putLocalEdge,
  putLocalNode,
  snapshot,
} from "./graph.js";
export { hubLink } from "./hub-link.js";
export {
  keysInGrace,
  loadRetiredKeys,
  rotateEncryptionKey,
  saveRetiredKeys,
} from "./key-rotation.js";
export { type Lifetime, MESSAGE_LIFETIMES, messageTtl } from "./lifetimes.js";
export * from "./limits.js";
export { type AgentLink, MemoryNetwork } from "./link.js";
export { MemoryGraph } from "./memory-graph.js";
export {
  type ConflictType,
  canonicalHash,
  compareForResolution,
  type MergeConflict,
  type MergeOutcome,
  mergeItem,
  type VersionedEdge,
  type VersionedItem,
  type VersionedNode,
} from "./merge.js";
export {
  listenForPeers,
  PEER_FEATURES,
  type PeerLinkOptions,
  type PeerListener,
  type PeerListenerOptions,
  peerLink,
} from "./peer.js";
export type {
  AllowedPeer,
  AllowedPeerEntry,
  AllowedPeers,
  PeerRefusal,
} from "./peer-allow.js";
export { findPeerCards } from "./peer-control.js";
export { type MessageReceipt, messageDigest, receiptOf } from "./receipt.js";
export { Outbound, type SealingSendOptions, sealingPlan } from "./sealing.js";
export { RecipientKeys } from "./sealing-keys.js";
export { excerptOf, type SearchOptions, searchNodes } from "./search.js";
export { matchesFilters, nodeDomains, SubscriptionTable } from "./subscriptions.js";
export {
  deltaPages,
  pageChecksum,
  pageItems,
  requestVector,
  SyncReceiver,
  verifyPage,
} from "./sync.js";
export { ExtractiveSynthesizer, type ReceivedResponse, type Synthesizer } from "./synthesis.js";
export { isSealed, Opener, type RetiredEncryptionKey } from "./unsealing.js";
export {
  compareVectors,
  mergeVectors,
  type Ordering,
  type VersionVector,
  vectorSum,
} from "./version-vector.js";
