/**
 * `@ocp/a2a-ocp-messaging/agent`: the agent runtime (§5). Node-oriented
 * (`SqliteGraph` needs better-sqlite3; `hubLink` a `HubClient`), so it is a
 * subpath of its own and the root entry stays portable.
 */
export { type ConsensusDecision, type ProposeOptions } from "./agent-consensus.js";
export { type CollectiveQueryOptions, type CollectiveResult, DEFAULT_COLLECTIVE_TIMEOUT_MS } from "./agent-collective.js";
export { type SyncReport } from "./agent-sync.js";
export { OCPAgent, type OCPAgentEvents, type OCPAgentOptions } from "./agent.js";
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
  verifyOutcome,
  type VoteMessage,
  type VoteRejection,
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
export * from "./limits.js";
export { hubLink } from "./hub-link.js";
export { type AgentLink, MemoryNetwork } from "./link.js";
export { MemoryGraph } from "./memory-graph.js";
export { SqliteConsensusStore } from "./sqlite-consensus.js";
export { SqliteGraph } from "./sqlite-graph.js";
export {
  canonicalHash,
  compareForResolution,
  type ConflictType,
  type MergeConflict,
  type MergeOutcome,
  mergeItem,
  type VersionedEdge,
  type VersionedItem,
  type VersionedNode,
} from "./merge.js";
export { excerptOf, type SearchOptions, searchNodes } from "./search.js";
export { matchesFilters, nodeDomains, SubscriptionTable } from "./subscriptions.js";
export { deltaPages, pageChecksum, pageItems, requestVector, SyncReceiver, verifyPage } from "./sync.js";
export { ExtractiveSynthesizer, type ReceivedResponse, type Synthesizer } from "./synthesis.js";
export { compareVectors, mergeVectors, type Ordering, type VersionVector, vectorSum } from "./version-vector.js";
