/** What the dashboard page receives: plain JSON, no payload beyond these fields. */
import type { HubStats } from "@ocp/a2a-ocp-messaging/observe";
import type { FederationView } from "./federation.js";

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
  /** `response`: the nodes an agent found for a collective query (§5.2.2). */
  kind: "stream" | "update" | "conflict" | "response";
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
  /**
   * `open` until decided: the proposer's `ocp.consensus.achieved` (its
   * outcome) or `ocp.consensus.timeout`, or the deadline passing.
   */
  status: "open" | "approved" | "rejected" | "timeout";
  /** What the counted (verified) votes decide by the agents' rules, before the proposer says so. */
  projected: "open" | "approved" | "rejected";
}

export interface QueryResponseView {
  from: string;
  at: number;
  /** Nodes found (each also in the knowledge list and graph, redacted by visibility). */
  findings: number;
  confidence: number;
  verified: boolean;
}

export interface SynthesisView {
  at: number;
  from: string;
  confidence: number;
  sources: string[];
  /**
   * The synthesised text (answer, key points, consensus, dissent): withheld
   * (`undefined`) when a node it may be built from was withheld, or when the
   * dashboard saw none of the responses, unless the operator enabled every
   * visibility.
   */
  answer?: string | undefined;
  keyPoints?: string[] | undefined;
  consensus?: string[] | undefined;
  dissent?: string[] | undefined;
  /** How many consensus and dissent points there are, shown or not. */
  consensusCount: number;
  dissentCount: number;
}

/** A collective query (§5.2): the question, each response as it arrives, then the synthesis. */
export interface QueryView {
  id: string;
  asker: string;
  /** The question, broadcast to every agent (as an awareness beacon's task is). */
  query: string;
  at: number;
  /** When the asker stops collecting (ms since the epoch). */
  deadline: number;
  minResponses?: number | undefined;
  maxResponses?: number | undefined;
  responses: QueryResponseView[];
  synthesis?: SynthesisView | undefined;
  /** `collecting` until the synthesis arrives; `unanswered` past the deadline without one. */
  status: "collecting" | "synthesized" | "unanswered";
}

export interface RefusalView {
  at: number;
  from: string;
  code: string;
  reason: string;
  message: string;
}

/** The hub's health: the counters of its last `stats()` the page shows, and their history. */
export interface HealthView
  extends Pick<
    HubStats,
    | "connected"
    | "known"
    | "accepted"
    | "rejected"
    | "delivered"
    | "committed"
    | "slowConsumerCloses"
    | "peakOutboundBytes"
    | "storeConnected"
  > {
  refusalsByReason: Record<string, number>;
  /** Time series, one point a second: [t (s), in/s, out/s, connected]. */
  series: [number[], number[], number[], number[]];
}

export interface Snapshot {
  agents: AgentView[];
  knowledge: KnowledgeView[];
  graph: GraphView;
  proposals: ProposalView[];
  queries: QueryView[];
  refusals: RefusalView[];
  health: HealthView;
  /** Present only when the hub federates (`startDashboard(hub, { federation })`). */
  federation?: FederationView;
}

/** A change pushed over SSE: a partial snapshot (lists replace by id; `health` whole). */
export interface Delta {
  agents?: AgentView[];
  knowledge?: KnowledgeView[];
  graph?: GraphView;
  proposals?: ProposalView[];
  queries?: QueryView[];
  refusals?: RefusalView[];
  health?: HealthView;
  /** The peers (whole) and the crossings new since the last delta. */
  federation?: FederationView;
}
