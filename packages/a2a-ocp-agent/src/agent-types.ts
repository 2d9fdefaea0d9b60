import type {
  AgentIdentity,
  AwarenessBeaconPayload,
  CollectiveSynthesisPayload,
  ConsensusProposePayload,
  EventPublishPayload,
  KnowledgeConflictPayload,
  KnowledgeNode,
  PlainMessage,
  VisibilityPolicy,
} from "@ocp/a2a-ocp-messaging";
import type { ConsensusDecision } from "./agent-consensus.js";
import type { EdgeConflict } from "./agent-knowledge.js";
import type { KnowledgeRefusal } from "./authority.js";
import type { CompressionOptions } from "./compression.js";
import type { ConsensusStore, VoteMessage, VoteRejection } from "./consensus.js";
import type { KnowledgeGraph } from "./graph.js";
import type { AgentLink } from "./link.js";
import type { MessageReceipt } from "./receipt.js";
import type { Synthesizer } from "./synthesis.js";
import type { RetiredEncryptionKey } from "./unsealing.js";

/**
 * The hub's defaults: an absent visibility means `workspace`; no agent has a
 * team, so `team` nodes go only to their author and `sharedWith`. Pass the
 * hub's `teamOf` to share team nodes.
 */
export const DEFAULT_VISIBILITY_POLICY: VisibilityPolicy = {
  teamOf: () => undefined,
  defaultVisibility: "workspace",
};

/** Options of an {@link OCPAgent}. */
export interface OCPAgentOptions {
  readonly identity: AgentIdentity;
  /** The connection: `hubLink(await HubClient.connect(...))`, or a `MemoryNetwork` link. */
  readonly link: AgentLink;
  /** The local knowledge graph; a {@link MemoryGraph} by default (a `SqliteGraph` persists). */
  readonly graph?: KnowledgeGraph;
  /** Where proposals are kept across restarts; in memory by default. */
  readonly consensusStore?: ConsensusStore;
  /** Builds collective answers; the extractive one by default. */
  readonly synthesizer?: Synthesizer;
  /** Presence entries older than this read as away, ms. */
  readonly presenceStaleMs?: number;
  /** Answer other agents' collective queries from the local graph (default true). */
  readonly answerQueries?: boolean;
  readonly now?: () => number;
  /**
   * §8.5 who may see which node, as the hub's rules say (`maySee`): nodes a
   * recipient may not see are never streamed, synced, returned as findings
   * or sent in a conflict report to it. Default: the link's `visibility`
   * (a peer listener's), else {@link DEFAULT_VISIBILITY_POLICY}.
   */
  readonly visibility?: VisibilityPolicy;
  /**
   * §12.2: streams, sync pages and collective answers at least
   * `AGENT_COMPRESSION_THRESHOLD_BYTES` go compressed to recipients whose
   * cards announce it (compression.ts). `{ enabled: false }` sends all plain.
   */
  readonly compression?: CompressionOptions;
  /**
   * §8.4 seal every message addressed to named agents (a per-agent
   * "sensitive" default; `send(..., { sensitive })` decides per call).
   * Messages carrying a `private` node with `sharedWith` are sealed always.
   * Default false.
   */
  readonly sealDirect?: boolean;
  /**
   * Encryption keys this agent rotated away from: sealed messages for them
   * still open for `ENCRYPTION_KEY_GRACE_MS` after `retiredAt` (key-rotation.ts).
   */
  readonly retiredEncryptionKeys?: readonly RetiredEncryptionKey[];
}

/** Events an agent emits. */
export interface OCPAgentEvents extends Record<string, unknown[]> {
  /** Nodes merged from a stream, an update or a sync (tombstones excluded), their sender, and the signed message they came in. */
  knowledge: [nodes: KnowledgeNode[], from: string, receipt: MessageReceipt];
  /** Node ids deleted by a sender. */
  deleted: [ids: string[], from: string];
  /** A conflict this agent detected (reported once, and sent to the other side), or one reported to it. */
  conflict: [conflict: KnowledgeConflictPayload, detectedBy: string];
  /** A concurrent edit of an edge this agent detected (and sent as `ocp.sync.conflict`), or one reported to it. */
  edgeConflict: [conflict: EdgeConflict, detectedBy: string];
  /**
   * A node, edge or deletion received and not merged: its signer is not the
   * item's author nor an editor the author listed, it changes `createdBy` or
   * (as an editor) `ocpEditors`, or its author signature fails (`authority.ts`).
   */
  refused: [refusal: KnowledgeRefusal];
  proposal: [proposal: ConsensusProposePayload, from: string];
  vote: [vote: VoteMessage];
  voteRejected: [vote: VoteMessage, rejection: VoteRejection];
  consensus: [decision: ConsensusDecision];
  awareness: [agentId: string, awareness: AwarenessBeaconPayload];
  event: [event: EventPublishPayload, subscriptionId: string];
  synthesis: [synthesis: CollectiveSynthesisPayload, from: string];
  /**
   * A message that could not be handled (never thrown into the link); a
   * sealed message that cannot be opened, with the reason as the error's
   * code (`sealed_tampered`, `sealed_not_for_us`, ...: unsealing.ts).
   */
  error: [error: unknown, message: PlainMessage | undefined];
}
