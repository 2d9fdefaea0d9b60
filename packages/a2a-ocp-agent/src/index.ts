/**
 * `@ocp/a2a-ocp-agent`: the a2a+ocp agent runtime (§5): knowledge, sync,
 * subscriptions, collective queries, consensus and awareness, over a hub
 * (`hubLink` on a `HubClient`) or an in-memory network. The in-memory graph
 * and consensus store load no native module; the SQLite ones are behind
 * `@ocp/a2a-ocp-agent/sqlite` (better-sqlite3, an optional peer).
 *
 * Every limit is a member of `LIMITS`; the merge, sync, consensus and
 * sealing helpers the other packages share are at `./internal`, which semver
 * does not cover.
 */

export { OCPAgent } from "./agent.js";
export type { CollectiveQueryOptions, CollectiveResult } from "./agent-collective.js";
export type { ConsensusDecision, ProposeOptions } from "./agent-consensus.js";
export type { SyncOptions, SyncReport } from "./agent-sync.js";
export {
  DEFAULT_VISIBILITY_POLICY,
  type OCPAgentEvents,
  type OCPAgentOptions,
} from "./agent-types.js";
export type { KnowledgeRefusal, RefusalReason } from "./authority.js";
export { announceCompression, type CompressionOptions } from "./compression.js";
export { type ConsensusStore, MemoryConsensusStore, type ProposalState } from "./consensus.js";
export { AGENT_ERROR_CODES, type AgentErrorCode } from "./errors.js";
export type { KnowledgeGraph } from "./graph.js";
export { hubLink } from "./hub-link.js";
export { rotateEncryptionKey } from "./key-rotation.js";
/**
 * Every limit of `@ocp/a2a-ocp-agent`, by name (`LIMITS.NAME`): the finite defaults the
 * package enforces, each documented where it is defined (`src/limits.ts`) and
 * listed in the README's limits table. A module namespace: no member can be
 * reassigned and none added.
 */
export * as LIMITS from "./limits.js";
export { type AgentLink, MemoryNetwork } from "./link.js";
export { MemoryGraph } from "./memory-graph.js";
export type { VersionedEdge, VersionedNode } from "./merge.js";
export {
  listenForPeers,
  type PeerLinkOptions,
  type PeerListener,
  type PeerListenerOptions,
  peerLink,
} from "./peer.js";
export type { AllowedPeer, AllowedPeerEntry, AllowedPeers, PeerRefusal } from "./peer-allow.js";
export type { MessageReceipt } from "./receipt.js";
export type { SealingSendOptions } from "./sealing.js";
export type { SearchOptions } from "./search.js";
export { ExtractiveSynthesizer, type ReceivedResponse, type Synthesizer } from "./synthesis.js";
export type { RetiredEncryptionKey } from "./unsealing.js";
export type { VersionVector } from "./version-vector.js";
