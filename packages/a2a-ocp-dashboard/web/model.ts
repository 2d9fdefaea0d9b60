/** The page's copy of the dashboard model: a snapshot, then deltas merged in. */

import type { FederationView } from "../src/federation.js";
import type {
  AgentView,
  Delta,
  GraphView,
  HealthView,
  KnowledgeView,
  ProposalView,
  QueryView,
  RefusalView,
  Snapshot,
} from "../src/views.js";

const MAX_RECENT = 200;

export class Model {
  agents = new Map<string, AgentView>();
  knowledge: KnowledgeView[] = [];
  graph: GraphView = { nodes: [], edges: [] };
  proposals = new Map<string, ProposalView>();
  queries = new Map<string, QueryView>();
  refusals: RefusalView[] = [];
  health: HealthView | undefined;
  /** Absent when the hub does not federate. */
  federation: FederationView | undefined;

  reset(snapshot: Snapshot): void {
    this.agents = new Map(snapshot.agents.map((a) => [a.id, a]));
    this.knowledge = snapshot.knowledge;
    this.graph = snapshot.graph;
    this.proposals = new Map(snapshot.proposals.map((p) => [p.id, p]));
    this.queries = new Map(snapshot.queries.map((q) => [q.id, q]));
    this.refusals = snapshot.refusals;
    this.health = snapshot.health;
    this.federation = snapshot.federation;
  }

  /** Merges a delta; returns which views changed. */
  merge(delta: Delta): Set<string> {
    const changed = new Set<string>();
    for (const agent of delta.agents ?? []) this.agents.set(agent.id, agent);
    if (delta.agents) changed.add("awareness");
    if (delta.knowledge) {
      this.knowledge = [...this.knowledge, ...delta.knowledge].slice(-MAX_RECENT);
      changed.add("knowledge");
    }
    if (delta.graph) {
      this.graph = delta.graph;
      changed.add("graph");
    }
    for (const p of delta.proposals ?? []) this.proposals.set(p.id, p);
    if (delta.proposals) changed.add("consensus");
    for (const q of delta.queries ?? []) this.queries.set(q.id, q);
    if (delta.queries) changed.add("queries");
    if (delta.refusals) {
      this.refusals = [...this.refusals, ...delta.refusals].slice(-MAX_RECENT);
      changed.add("health");
    }
    if (delta.health) {
      this.health = delta.health;
      changed.add("health");
    }
    if (delta.federation) {
      const before = this.federation?.crossings ?? [];
      this.federation = {
        peers: delta.federation.peers,
        crossings: [...before, ...delta.federation.crossings].slice(-MAX_RECENT),
        strangers: delta.federation.strangers,
      };
      changed.add("federation");
    }
    return changed;
  }
}
