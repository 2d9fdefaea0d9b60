import type { ConsensusProposePayload, MessageOf, VoteCounts } from "@ocp/a2a-ocp-messaging";
import { type KeyLookup, verifyMessage } from "@ocp/a2a-ocp-messaging";
import { type AgentErrorCode, agentError } from "./errors.js";

/**
 * Consensus (§5.3). The tally is a pure function of the proposal and the
 * votes counted so far; the README's "Consensus rules" table states it:
 *
 * - Quorum: nothing is decided before `requiredVotes` votes are counted;
 *   abstentions count toward the quorum.
 * - `majority`: approved when approvals > rejections, rejected when
 *   rejections > approvals; abstentions are not counted either way. A tie
 *   (or only abstentions) decides nothing: the proposal waits for another
 *   vote and, at the end of the voting period, times out.
 * - `unanimous`: once quorum is met, rejected if any vote is a rejection,
 *   approved if there is at least one approval and no rejection; only
 *   abstentions decide nothing.
 * - `threshold`: with quorum met and at least one non-abstaining vote,
 *   approved when approvals / (approvals + rejections) >= threshold (greater
 *   or equal), rejected otherwise.
 * - The first decisive tally closes the proposal. Votes after that, or after
 *   the voting period, are late: rejected (`proposal_closed`) and reported.
 * - One vote per agent: the first valid signed vote counts; a second vote of
 *   the same agent (same or different choice) is rejected (`duplicate_vote`)
 *   and reported. A vote that is unsigned, does not verify, or whose
 *   `votedBy` differs from its sender is rejected (`vote_rejected`).
 */

/** The signed `ocp.consensus.vote` message, kept verbatim. */
export type VoteMessage = MessageOf<"ocp.consensus.vote">;

/** What the tally says now. */
export type TallyResult =
  | { readonly status: "pending"; readonly votes: VoteCounts }
  | {
      readonly status: "achieved";
      readonly outcome: "approved" | "rejected";
      readonly votes: VoteCounts;
    }
  | { readonly status: "timeout"; readonly reason: string; readonly votes: VoteCounts };

/** Counts votes by choice. */
export function countVotes(choices: ReadonlyArray<"approve" | "reject" | "abstain">): VoteCounts {
  const votes = { approve: 0, reject: 0, abstain: 0 };
  for (const c of choices) votes[c] += 1;
  return votes;
}

/** The decision for `votes`; `periodEnded` turns an undecided tally into a timeout. */
export function tally(
  proposal: ConsensusProposePayload,
  votes: VoteCounts,
  periodEnded: boolean,
): TallyResult {
  const cast = votes.approve + votes.reject + votes.abstain;
  const undecided = (reason: string): TallyResult =>
    periodEnded ? { status: "timeout", reason, votes } : { status: "pending", votes };
  if (cast < proposal.requiredVotes) {
    return undecided(`quorum not met: ${cast} of ${proposal.requiredVotes} required votes`);
  }
  const decided = (approved: boolean): TallyResult => ({
    status: "achieved",
    outcome: approved ? "approved" : "rejected",
    votes,
  });
  switch (proposal.votingRule) {
    case "majority":
      if (votes.approve === votes.reject) {
        return undecided(
          votes.approve === 0 ? "only abstentions" : `tie: ${votes.approve} to ${votes.reject}`,
        );
      }
      return decided(votes.approve > votes.reject);
    case "unanimous":
      if (votes.reject > 0) return decided(false);
      if (votes.approve === 0) return undecided("only abstentions");
      return decided(true);
    case "threshold": {
      const opinions = votes.approve + votes.reject;
      if (opinions === 0) return undecided("only abstentions");
      return decided(votes.approve / opinions >= (proposal.threshold ?? 1));
    }
  }
}

/** Why a vote was not counted. */
export interface VoteRejection {
  readonly code: Extract<AgentErrorCode, "duplicate_vote" | "vote_rejected" | "proposal_closed">;
  readonly reason: string;
}

/** The persisted state of one proposal (see {@link ConsensusStore}). */
export interface ProposalState {
  readonly proposalId: string;
  readonly proposer: string;
  readonly proposal: ConsensusProposePayload;
  /** Epoch ms when the voting period ends. */
  readonly deadline: number;
  /** The counted votes, verbatim, in arrival order. */
  votes: VoteMessage[];
  decided?: TallyResult;
  /** Whether the decision was announced (acknowledged by the hub). */
  announced: boolean;
}

/** Where proposal state lives, so a restart resumes the voting period and the announcement. */
export interface ConsensusStore {
  load(proposalId: string): ProposalState | undefined;
  save(state: ProposalState): void;
  /** Proposals not yet announced. */
  pending(): ProposalState[];
}

/** A {@link ConsensusStore} in memory. */
export class MemoryConsensusStore implements ConsensusStore {
  readonly #states = new Map<string, ProposalState>();
  load(proposalId: string): ProposalState | undefined {
    return this.#states.get(proposalId);
  }
  save(state: ProposalState): void {
    this.#states.set(state.proposalId, structuredClone(state));
  }
  pending(): ProposalState[] {
    return [...this.#states.values()].filter((s) => !s.announced).map((s) => structuredClone(s));
  }
}

/**
 * Counts a vote into a proposal's state: verifies its signature against the
 * sender's key, checks `votedBy`, the voting period and duplicates, then
 * re-tallies. Returns the rejection, or the (possibly new) decision.
 */
export async function countVote(
  state: ProposalState,
  vote: VoteMessage,
  lookupKey: KeyLookup,
  now: number,
): Promise<{ ok: true; result: TallyResult } | { ok: false; rejection: VoteRejection }> {
  const reject = (code: VoteRejection["code"], reason: string) => ({
    ok: false as const,
    rejection: { code, reason },
  });
  if (vote.payload.proposalId !== state.proposalId)
    return reject("vote_rejected", "vote for another proposal");
  if (vote.payload.votedBy !== vote.from)
    return reject("vote_rejected", "votedBy differs from the signer");
  const verified = await verifyMessage(vote, lookupKey);
  if (!verified.ok) return reject("vote_rejected", `signature: ${verified.error.code}`);
  if (state.decided !== undefined)
    return reject("proposal_closed", "the proposal is already decided");
  if (now >= state.deadline) return reject("proposal_closed", "the voting period has ended");
  if (state.votes.some((v) => v.from === vote.from)) {
    return reject("duplicate_vote", `${vote.from} already voted; the first vote counts`);
  }
  state.votes.push(vote);
  const result = tally(state.proposal, countVotes(state.votes.map((v) => v.payload.vote)), false);
  if (result.status !== "pending") state.decided = result;
  return { ok: true, result };
}

/** Closes a proposal whose period ended without a decision. */
export function expire(state: ProposalState): TallyResult {
  if (state.decided !== undefined) return state.decided;
  state.decided = tally(state.proposal, countVotes(state.votes.map((v) => v.payload.vote)), true);
  return state.decided;
}

/**
 * Checks an announced outcome without trusting the proposer: every attached
 * vote must verify against its sender's key, be for this proposal, be the
 * only one of its agent, and the counts, voters and outcome must be what
 * {@link tally} gives for them.
 */
export async function verifyOutcome(
  proposal: ConsensusProposePayload,
  announced: { outcome?: "approved" | "rejected"; votes: VoteCounts; voters?: string[] },
  signedVotes: readonly VoteMessage[],
  lookupKey: KeyLookup,
  periodEnded: boolean,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  const seen = new Set<string>();
  for (const vote of signedVotes) {
    if (vote.payload.proposalId !== proposal.proposalId)
      return { ok: false, reason: "a vote is for another proposal" };
    if (vote.payload.votedBy !== vote.from)
      return { ok: false, reason: "a vote's votedBy differs from its signer" };
    if (seen.has(vote.from)) return { ok: false, reason: `two votes of ${vote.from}` };
    seen.add(vote.from);
    const verified = await verifyMessage(vote, lookupKey);
    if (!verified.ok) return { ok: false, reason: `vote of ${vote.from}: ${verified.error.code}` };
  }
  const result = tally(proposal, countVotes(signedVotes.map((v) => v.payload.vote)), periodEnded);
  const votes = result.votes;
  if (
    votes.approve !== announced.votes.approve ||
    votes.reject !== announced.votes.reject ||
    votes.abstain !== announced.votes.abstain
  ) {
    return { ok: false, reason: "the counts differ from the signed votes" };
  }
  if (
    announced.voters !== undefined &&
    [...announced.voters].sort().join() !== [...seen].sort().join()
  ) {
    return { ok: false, reason: "the voters differ from the signed votes" };
  }
  if (announced.outcome !== undefined) {
    if (result.status !== "achieved" || result.outcome !== announced.outcome) {
      return { ok: false, reason: "the outcome is not what the votes give" };
    }
  } else if (result.status === "achieved") {
    return { ok: false, reason: "announced a timeout although the votes decide" };
  }
  return { ok: true };
}

/** Throws the typed error of a rejection. */
export function rejectionError(rejection: VoteRejection) {
  return agentError(rejection.code, rejection.reason);
}
