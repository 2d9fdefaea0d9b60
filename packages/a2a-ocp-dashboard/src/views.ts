/** What the dashboard page receives: plain JSON, no payload beyond these fields. */

export type Presence = "online" | "away" | "offline";

export interface AgentView {
  id: string;
  presence: Presence;
  status?: string | undefined;
  availability?: string | undefined;
  task?: string | undefined;
  blockedOn?: string | undefined;
  /** ms since the epoch: the last message or connection event seen. */
  lastSeen: number;
}

export interface NodeView {
  id: string;
  author: string;
  visibility: string;
  type: string;
  /** Withheld (`undefined`) unless the node is public or team, or the operator enabled it. */
  title?: string | undefined;
  domain?: string | undefined;
  hidden: boolean;
}

export interface KnowledgeView {
  at: number;
  messageId: string;
  kind: "stream" | "update" | "conflict";
  from: string;
  streamId?: string | undefined;
  nodes: NodeView[];
  recipients?: number | undefined;
  excluded: number;
  contradiction: boolean;
}

export interface GraphView {
  nodes: Array<{ id: string; author: string; label: string; hidden: boolean }>;
  edges: Array<{ source: string; target: string; relationship: string; contradiction: boolean }>;
}

export interface VoteView {
  voter: string;
  vote: string;
  at: number;
  verified: boolean;
}

export interface ProposalView {
  id: string;
  topic: string;
  proposer: string;
  rule: string;
  requiredVotes: number;
  threshold?: number | undefined;
  deadline: number;
  tally: { approve: number; reject: number; abstain: number };
  votes: VoteView[];
  status: "open" | "approved" | "rejected" | "timeout";
}

export interface RefusalView {
  at: number;
  from: string;
  code: string;
  reason: string;
  message: string;
}

export interface HealthView {
  connected: number;
  known: number;
  accepted: number;
  rejected: number;
  delivered: number;
  committed: number;
  slowConsumerCloses: number;
  peakOutboundBytes: number;
  /** False while the hub's store (a cluster's NATS connection) cannot be reached. */
  storeConnected: boolean;
  refusalsByReason: Record<string, number>;
  /** Time series, one point a second: [t (s), in/s, out/s, connected]. */
  series: [number[], number[], number[], number[]];
}

export interface Snapshot {
  agents: AgentView[];
  knowledge: KnowledgeView[];
  graph: GraphView;
  proposals: ProposalView[];
  refusals: RefusalView[];
  health: HealthView;
}

/** A change pushed over SSE: a partial snapshot (lists replace by id; `health` whole). */
export interface Delta {
  agents?: AgentView[];
  knowledge?: KnowledgeView[];
  graph?: GraphView;
  proposals?: ProposalView[];
  refusals?: RefusalView[];
  health?: HealthView;
}
