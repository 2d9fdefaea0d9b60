/**
 * The counts the page shows above its rows, computed from the same rows by
 * the same rules the rows are drawn with, so that the two always agree. An
 * agent is blocked while it is online or away with the status `blocked`; an
 * offline agent's last status is history, not a blocker.
 */
import type { AgentView, ProposalView, QueryView } from "./views.js";

/** Whether an agent is blocked now: status `blocked` and not offline. */
export const isBlocked = (agent: AgentView): boolean =>
  agent.status === "blocked" && agent.presence !== "offline";

export interface Summary {
  agents: number;
  online: number;
  away: number;
  offline: number;
  /** Not offline (online or away). */
  connected: number;
  blocked: number;
  queries: number;
  /** Queries still collecting responses. */
  queriesOpen: number;
  proposals: number;
  /** Proposals not decided yet. */
  proposalsOpen: number;
}

export function summarize(
  agents: Iterable<AgentView>,
  proposals: Iterable<ProposalView>,
  queries: Iterable<QueryView>,
): Summary {
  const s: Summary = {
    agents: 0,
    online: 0,
    away: 0,
    offline: 0,
    connected: 0,
    blocked: 0,
    queries: 0,
    queriesOpen: 0,
    proposals: 0,
    proposalsOpen: 0,
  };
  for (const agent of agents) {
    s.agents += 1;
    s[agent.presence] += 1;
    if (agent.presence !== "offline") s.connected += 1;
    if (isBlocked(agent)) s.blocked += 1;
  }
  for (const p of proposals) {
    s.proposals += 1;
    if (p.status === "open") s.proposalsOpen += 1;
  }
  for (const q of queries) {
    s.queries += 1;
    if (q.status === "collecting") s.queriesOpen += 1;
  }
  return s;
}
