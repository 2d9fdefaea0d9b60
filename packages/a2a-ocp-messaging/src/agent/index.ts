/**
 * `@ocp/a2a-ocp-messaging/agent`: the agent runtime (§5). Node-oriented
 * (`SqliteGraph` needs better-sqlite3; `hubLink` a `HubClient`), so it is a
 * subpath of its own and the root entry stays portable.
 */

export { OCPAgent } from "./agent.js";
export {
  type CollectiveQueryOptions,
  type CollectiveResult,
  DEFAULT_COLLECTIVE_TIMEOUT_MS,
} from "./agent-collective.js";
export type { ConsensusDecision, ProposeOptions } from "./agent-consensus.js";
export type { SyncReport } from "./agent-sync.js";
export {
  DEFAULT_VISIBILITY_POLICY,
  type OCPAgentEvents,
  type OCPAgentOptions,
} from "./agent-types.js";
export { PresenceTable } from "./awareness.js";
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
export { AGENT_ERROR_CODES, type AgentErrorCode, agentError } from "./errors.js";
export { matchesEventFilters, matchesEventSubscription, matchesEventType } from "./events.js";
export {
  type ApplyResult,
  applyRemote,
  type ChangeRecord,
  deleteLocal,
  type ItemKind,
  type KnowledgeGraph,
  putLocalEdge,
  putLocalNode,
  snapshot,
} from "./graph.js";
export { hubLink } from "./hub-link.js";
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
export { excerptOf, type SearchOptions, searchNodes } from "./search.js";
export { SqliteConsensusStore } from "./sqlite-consensus.js";
export { SqliteGraph } from "./sqlite-graph.js";
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
export {
  compareVectors,
  mergeVectors,
  type Ordering,
  type VersionVector,
  vectorSum,
} from "./version-vector.js";
