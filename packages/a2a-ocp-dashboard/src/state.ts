/**
 * The dashboard's model of a hub, fed by hub events. The hub calls the
 * listener on its forwarding path, so {@link DashboardState.push} only queues
 * the event; {@link DashboardState.flush} (on a timer) applies the queue and
 * returns what changed since the last flush, which the server pushes to every
 * open page. Everything is bounded: recent knowledge, refusals, the graph and
 * closed proposals keep the newest entries only; agents are one entry each.
 */
import { ProposalBook } from "./consensus.js";
import type { AcceptedEvent, DashboardHubEvent, DashboardHubStats } from "./events.js";
import { KnowledgeGraph } from "./graph.js";
import { QueryBook } from "./queries.js";
import { record as obj, text as str } from "./read.js";
import type { RedactionPolicy } from "./redact.js";
import type { AgentView, Delta, KnowledgeView, RefusalView, Snapshot } from "./views.js";

export interface StateLimits {
  knowledge: number;
  refusals: number;
  graphNodes: number;
  graphEdges: number;
  proposals: number;
  /** Collective queries kept (the newest). */
  queries: number;
  /** Points of each time series (one a second). */
  seriesPoints: number;
  /** Events queued between flushes; beyond it events are counted as dropped. */
  queue: number;
  /** Federation crossings and refusals kept (the newest; federation.ts). */
  crossings: number;
}

export const DEFAULT_LIMITS: StateLimits = {
  knowledge: 200,
  refusals: 200,
  graphNodes: 300,
  graphEdges: 600,
  proposals: 100,
  queries: 100,
  seriesPoints: 120,
  queue: 100_000,
  crossings: 200,
};

/** A connected agent with no message for this long shows as away. */
export const AWAY_AFTER_MS = 120_000;

/** A collective query still without a synthesis this long after its deadline shows as unanswered. */
export const SYNTHESIS_GRACE_MS = 5_000;

/** Refusal codes grouped into the reasons an operator asks about. */
export function refusalReason(code: string): string {
  switch (code) {
    case "signature_invalid":
    case "signature_missing":
    case "sender_mismatch":
    case "unknown_sender":
      return "forged";
    case "replay_detected":
    case "replay_window_saturated":
      return "replayed";
    case "message_expired":
    case "message_from_future":
      return "expired";
    case "rate_limited":
      return "rate-limited";
    default:
      return "invalid";
  }
}

const pushBounded = <T>(list: T[], item: T, max: number) => {
  list.push(item);
  if (list.length > max) list.splice(0, list.length - max);
};

export class DashboardState {
  readonly #policy: RedactionPolicy;
  readonly #limits: StateLimits;
  readonly #now: () => number;
  #queue: DashboardHubEvent[] = [];
  dropped = 0;
  readonly #agents = new Map<string, AgentView>();
  readonly #knowledge: KnowledgeView[] = [];
  readonly #refusals: RefusalView[] = [];
  readonly #graph: KnowledgeGraph;
  #graphChanged = false;
  readonly #proposals: ProposalBook;
  readonly #queries: QueryBook;
  readonly #refusalsByReason: Record<string, number> = {};
  readonly #series: [number[], number[], number[], number[]] = [[], [], [], []];
  #stats: DashboardHubStats | undefined;
  #lastStats: { at: number; accepted: number; delivered: number } | undefined;
  #delta: Delta = {};
  readonly #dirtyAgents = new Set<string>();
  readonly #dirtyProposals = new Set<string>();
  readonly #dirtyQueries = new Set<string>();

  constructor(
    policy: RedactionPolicy,
    limits: Partial<StateLimits> = {},
    now: () => number = Date.now,
  ) {
    this.#policy = policy;
    this.#limits = { ...DEFAULT_LIMITS, ...limits };
    this.#graph = new KnowledgeGraph(this.#limits);
    this.#proposals = new ProposalBook(this.#limits.proposals);
    this.#queries = new QueryBook(this.#limits.queries, policy.showAllVisibilities === true);
    this.#now = now;
  }

  /** Queues one hub event (cheap: called on the hub's forwarding path). */
  push(event: DashboardHubEvent): void {
    if (this.#queue.length >= this.#limits.queue) this.dropped += 1;
    else this.#queue.push(event);
  }

  /** Agents connected before the dashboard started. */
  seed(connected: readonly string[]): void {
    const at = this.#now();
    for (const id of connected) this.#touch(id, at, true);
  }

  /** Records the hub's counters (once a second) as a point of the time series. */
  sample(stats: DashboardHubStats): void {
    const at = this.#now();
    const last = this.#lastStats;
    const seconds = last === undefined ? 0 : Math.max((at - last.at) / 1000, 0.001);
    const rate = (now: number, before: number | undefined) =>
      last === undefined || before === undefined ? 0 : Math.max(0, (now - before) / seconds);
    const points: [number, number, number, number] = [
      Math.round(at / 1000),
      rate(stats.accepted, last?.accepted),
      rate(stats.delivered, last?.delivered),
      stats.connected,
    ];
    points.forEach((value, i) => {
      const line = this.#series[i]!;
      line.push(value);
      if (line.length > this.#limits.seriesPoints) line.shift();
    });
    this.#lastStats = { at, accepted: stats.accepted, delivered: stats.delivered };
    this.#stats = stats;
    this.#delta.health = this.#health();
    for (const agent of this.#agents.values()) {
      if (agent.presence === "online" && at - agent.lastSeen > AWAY_AFTER_MS) {
        agent.presence = "away";
        this.#dirtyAgents.add(agent.id);
      }
    }
  }

  /** Applies the queued events; returns what changed since the last flush, or `undefined`. */
  flush(): Delta | undefined {
    const queue = this.#queue;
    this.#queue = [];
    for (const event of queue) this.#apply(event);
    for (const id of this.#proposals.expire(this.#now())) this.#dirtyProposals.add(id);
    for (const id of this.#queries.expire(this.#now(), SYNTHESIS_GRACE_MS)) {
      this.#dirtyQueries.add(id);
    }
    if (this.#graphChanged) {
      this.#delta.graph = this.#graph.view();
      this.#graphChanged = false;
    }
    const delta = this.#delta;
    if (this.#dirtyAgents.size > 0) {
      delta.agents = [...this.#dirtyAgents].map((id) => ({ ...this.#agents.get(id)! }));
      this.#dirtyAgents.clear();
    }
    if (this.#dirtyProposals.size > 0) {
      delta.proposals = [...this.#dirtyProposals].flatMap((id) => {
        const p = this.#proposals.proposals.get(id);
        return p === undefined ? [] : [structuredClone(p)];
      });
      this.#dirtyProposals.clear();
    }
    if (this.#dirtyQueries.size > 0) {
      delta.queries = [...this.#dirtyQueries].flatMap((id) => {
        const q = this.#queries.get(id);
        return q === undefined ? [] : [structuredClone(q)];
      });
      this.#dirtyQueries.clear();
    }
    this.#delta = {};
    return Object.keys(delta).length === 0 ? undefined : delta;
  }

  /** Everything the page shows, for a page that just connected. */
  snapshot(): Snapshot {
    return {
      agents: [...this.#agents.values()].map((a) => ({ ...a })),
      knowledge: [...this.#knowledge],
      graph: this.#graph.view(),
      proposals: [...this.#proposals.proposals.values()].map((p) => structuredClone(p)),
      queries: this.#queries.views().map((q) => structuredClone(q)),
      refusals: [...this.#refusals],
      health: this.#health(),
    };
  }

  #apply(event: DashboardHubEvent): void {
    switch (event.kind) {
      case "agent.registered":
        this.#touch(event.agentId, event.at, true);
        return;
      case "agent.left": {
        const agent = this.#touch(event.agentId, event.at, false);
        agent.presence = "offline";
        return;
      }
      case "message.refused": {
        const reason = refusalReason(event.code);
        this.#refusalsByReason[reason] = (this.#refusalsByReason[reason] ?? 0) + 1;
        const refusal = {
          at: event.at,
          from: event.from,
          code: event.code,
          reason,
          message: event.message.slice(0, 200),
        };
        pushBounded(this.#refusals, refusal, this.#limits.refusals);
        this.#delta.refusals ??= [];
        this.#delta.refusals.push(refusal);
        this.#delta.health = this.#health();
        return;
      }
      case "message.accepted":
        this.#touch(event.from, event.at, true);
        if (event.excluded > 0) {
          const by = this.#refusalsByReason;
          by["visibility-excluded"] = (by["visibility-excluded"] ?? 0) + event.excluded;
          this.#delta.health = this.#health();
        }
        this.#message(event);
    }
  }

  #touch(id: string, at: number, connected: boolean): AgentView {
    let agent = this.#agents.get(id);
    if (agent === undefined) {
      agent = { id, presence: "online", lastSeen: at };
      this.#agents.set(id, agent);
    }
    agent.lastSeen = Math.max(agent.lastSeen, at);
    if (connected) agent.presence = agent.availability === "away" ? "away" : "online";
    this.#dirtyAgents.add(id);
    return agent;
  }

  #message(event: AcceptedEvent): void {
    const payload = obj(event.payload);
    switch (event.type) {
      case "ocp.awareness.beacon":
      case "ocp.awareness.update":
        this.#awareness(
          event.from,
          event.type === "ocp.awareness.update" ? obj(payload["changes"]) : payload,
        );
        return;
      case "ocp.knowledge.stream":
      case "ocp.knowledge.update":
      case "ocp.knowledge.conflict":
        this.#knowledgeMessage(event, payload);
        return;
      case "ocp.consensus.propose":
      case "ocp.consensus.vote":
      case "ocp.consensus.achieved":
      case "ocp.consensus.timeout":
        this.#consensus(event, payload);
        return;
      case "ocp.collective.query":
      case "ocp.collective.response":
      case "ocp.collective.synthesis":
        this.#collective(event, payload);
    }
  }

  #awareness(from: string, beacon: Record<string, unknown>): void {
    const agent = this.#agents.get(from)!;
    if ("status" in beacon) agent.status = str(beacon["status"]);
    if ("availability" in beacon) agent.availability = str(beacon["availability"]);
    if ("currentContext" in beacon) {
      const context = obj(beacon["currentContext"]);
      agent.task = str(context["task"]);
      agent.blockedOn = str(context["blockedOn"]);
    }
    const away = agent.availability === "away" || agent.status === "away";
    if (agent.presence !== "offline") agent.presence = away ? "away" : "online";
  }

  #knowledgeMessage(event: AcceptedEvent, payload: Record<string, unknown>): KnowledgeView {
    const item = this.#graph.read(event, payload, this.#policy);
    if (item.kind !== "response" || item.nodes.length > 0) {
      pushBounded(this.#knowledge, item, this.#limits.knowledge);
      this.#delta.knowledge ??= [];
      this.#delta.knowledge.push(item);
      this.#graphChanged = true;
    }
    return item;
  }

  /** A collective query, a response (its findings also read as knowledge) or a synthesis. */
  #collective(event: AcceptedEvent, payload: Record<string, unknown>): void {
    let withheld = false;
    const queryId = str(payload["queryId"]);
    if (
      event.type === "ocp.collective.response" &&
      queryId !== undefined &&
      this.#queries.awaits(queryId, event.from)
    ) {
      withheld = this.#knowledgeMessage(event, payload).nodes.some((n) => n.hidden);
    }
    const changed = this.#queries.apply(event, payload, withheld);
    if (changed !== undefined) this.#dirtyQueries.add(changed);
  }

  #consensus(event: AcceptedEvent, payload: Record<string, unknown>): void {
    const changed = this.#proposals.apply(event, payload);
    if (changed !== undefined) this.#dirtyProposals.add(changed);
  }

  #health() {
    const s = this.#stats;
    return {
      connected: s?.connected ?? 0,
      known: s?.known ?? 0,
      accepted: s?.accepted ?? 0,
      rejected: s?.rejected ?? 0,
      delivered: s?.delivered ?? 0,
      committed: s?.committed ?? 0,
      slowConsumerCloses: s?.slowConsumerCloses ?? 0,
      peakOutboundBytes: s?.peakOutboundBytes ?? 0,
      storeConnected: s?.storeConnected ?? true,
      refusalsByReason: { ...this.#refusalsByReason },
      series: this.#series.map((line) => [...line]) as [number[], number[], number[], number[]],
    };
  }
}
