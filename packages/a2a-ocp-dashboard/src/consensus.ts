/**
 * Proposals as the hub sees them: `ocp.consensus.propose` opens one, each
 * vote is listed with whether the hub verified its signature and only
 * verified votes count. What the counted votes decide by the agents' rules
 * is shown as `projected`; the status stays `open` until the proposal is
 * decided: the proposer's `ocp.consensus.achieved` (its outcome) or
 * `ocp.consensus.timeout`, or the deadline passing.
 */
import type { AcceptedEvent } from "./events.js";
import { text as str } from "./read.js";
import type { ProposalView } from "./views.js";

const num = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);

/**
 * The outcome the counted (verified) votes decide, by the agents' rules
 * (`@ocp/a2a-ocp-agent` consensus): nothing before the quorum; `majority`
 * approve > reject (a tie waits); `unanimous` any reject rejects, else one
 * approval approves; `threshold` approve / (approve + reject) >= threshold.
 */
export function decide(
  p: Pick<ProposalView, "tally" | "requiredVotes" | "rule" | "threshold">,
): ProposalView["projected"] {
  const { approve, reject, abstain } = p.tally;
  if (approve + reject + abstain < p.requiredVotes) return "open";
  const verdict = (approved: boolean) => (approved ? "approved" : "rejected");
  switch (p.rule) {
    case "majority":
      return approve === reject ? "open" : verdict(approve > reject);
    case "unanimous":
      return reject > 0 ? "rejected" : approve === 0 ? "open" : "approved";
    case "threshold":
      return approve + reject === 0
        ? "open"
        : verdict(approve / (approve + reject) >= (p.threshold ?? 1));
    default:
      return "open";
  }
}

export class ProposalBook {
  readonly proposals = new Map<string, ProposalView>();

  constructor(readonly max: number) {}

  /** Applies one consensus message; returns the id of the proposal it changed. */
  apply(event: AcceptedEvent, payload: Record<string, unknown>): string | undefined {
    const id = str(payload["proposalId"]);
    if (id === undefined) return undefined;
    if (event.type === "ocp.consensus.propose") {
      if (this.proposals.has(id)) return undefined;
      this.proposals.set(id, {
        id,
        topic: str(payload["topic"]) ?? "",
        proposer: event.from,
        rule: str(payload["votingRule"]) ?? "majority",
        requiredVotes: num(payload["requiredVotes"]) ?? 1,
        threshold: num(payload["threshold"]),
        deadline: event.at + (num(payload["votingPeriod"]) ?? 0) * 1000,
        tally: { approve: 0, reject: 0, abstain: 0 },
        votes: [],
        status: "open",
        projected: "open",
      });
      while (this.proposals.size > this.max) {
        this.proposals.delete(this.proposals.keys().next().value!);
      }
      return id;
    }
    const proposal = this.proposals.get(id);
    if (proposal === undefined) return undefined;
    if (event.type === "ocp.consensus.vote") {
      const vote = str(payload["vote"]);
      if (vote !== "approve" && vote !== "reject" && vote !== "abstain") return undefined;
      if (proposal.votes.some((v) => v.voter === event.from)) return undefined;
      proposal.votes.push({ voter: event.from, vote, at: event.at, verified: event.verified });
      if (event.verified) proposal.tally[vote] += 1;
      proposal.projected = decide(proposal);
      return id;
    }
    // Only the proposer decides its proposal; anyone else's word is ignored.
    if (event.from !== proposal.proposer || proposal.status !== "open") return undefined;
    if (event.type === "ocp.consensus.achieved") {
      const outcome = str(payload["outcome"]);
      if (outcome !== "approved" && outcome !== "rejected") return undefined;
      proposal.status = outcome;
    } else {
      proposal.status = "timeout";
    }
    return id;
  }

  /** Open proposals past their deadline time out; returns their ids. */
  expire(now: number): string[] {
    const expired: string[] = [];
    for (const p of this.proposals.values()) {
      if (p.status === "open" && p.deadline < now) {
        p.status = "timeout";
        expired.push(p.id);
      }
    }
    return expired;
  }
}
