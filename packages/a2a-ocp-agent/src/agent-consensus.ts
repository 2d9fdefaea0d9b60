import type { ConsensusProposePayload, MessageOf, VoteCounts } from "@ocp/a2a-ocp-messaging";
import { BROADCAST } from "@ocp/a2a-ocp-messaging";
import {
  type ConsensusStore,
  countVote,
  expire,
  type ProposalState,
  type TallyResult,
  type VoteMessage,
  type VoteRejection,
  verifyOutcome,
} from "./consensus.js";
import type { AgentContext } from "./context.js";
import { agentError } from "./errors.js";
import { ANNOUNCE_RETRY_MS, MAX_VOTING_PERIOD_SECONDS } from "./limits.js";

/** A decided proposal as agents learn it. */
export interface ConsensusDecision {
  readonly proposalId: string;
  readonly status: "achieved" | "timeout";
  readonly outcome?: "approved" | "rejected";
  readonly votes: VoteCounts;
  readonly reason?: string;
  /** Whether the attached signed votes prove the announced tally (always true for our own). */
  readonly verified: boolean;
  readonly verifyFailure?: string;
}

/** What `propose` takes: the §5.3.1 payload, the id optional. */
export interface ProposeOptions {
  proposalId?: string;
  topic: string;
  proposal: unknown;
  /** Seconds. */
  votingPeriod: number;
  requiredVotes: number;
  votingRule: "majority" | "unanimous" | "threshold";
  threshold?: number;
}

/** Callbacks the consensus service reports through. */
export interface ConsensusEvents {
  proposal(proposal: ConsensusProposePayload, from: string): void;
  vote(vote: VoteMessage): void;
  voteRejected(vote: VoteMessage, rejection: VoteRejection): void;
  decision(decision: ConsensusDecision): void;
}

/**
 * Proposals and votes (§5.3), agent side. The proposer counts the signed
 * votes (they are broadcast, so everyone sees them), announces the decision
 * with the counted vote messages attached verbatim (`signedVotes`, an
 * extension field), and persists its proposals in a {@link ConsensusStore}
 * so that the voting period, and an announcement the hub did not acknowledge,
 * survive a restart of the agent or the hub.
 */
export class ConsensusService {
  /** Proposals seen, with their voting deadline (epoch ms): the proposal and its votes live until it. */
  readonly #seen = new Map<
    string,
    { proposal: ConsensusProposePayload; from: string; deadline: number }
  >();
  readonly #timers = new Map<string, ReturnType<typeof setTimeout>>();
  #closed = false;

  constructor(
    private readonly ctx: AgentContext,
    private readonly store: ConsensusStore,
    private readonly events: ConsensusEvents,
  ) {}

  /** Re-arms the timers of our undecided proposals and re-sends unacknowledged announcements. */
  resume(): void {
    for (const state of this.store.pending()) {
      if (state.proposer !== this.ctx.id) continue;
      this.#seen.set(state.proposalId, {
        proposal: state.proposal,
        from: state.proposer,
        deadline: state.deadline,
      });
      if (state.decided !== undefined) void this.#announce(state);
      else this.#arm(state);
    }
  }

  async propose(payload: ProposeOptions): Promise<string> {
    if (payload.votingPeriod > MAX_VOTING_PERIOD_SECONDS) {
      throw agentError(
        "limit_exceeded",
        `votingPeriod ${payload.votingPeriod} s is longer than a message may live ` +
          `(MAX_VOTING_PERIOD_SECONDS = ${MAX_VOTING_PERIOD_SECONDS} s): agents offline ` +
          "during the vote would never receive the proposal",
        { details: { votingPeriod: payload.votingPeriod, max: MAX_VOTING_PERIOD_SECONDS } },
      );
    }
    const proposalId = payload.proposalId ?? `prop-${globalThis.crypto.randomUUID()}`;
    const proposal = { ...payload, proposalId } as ConsensusProposePayload;
    const state: ProposalState = {
      proposalId,
      proposer: this.ctx.id,
      proposal,
      deadline: this.ctx.now() + proposal.votingPeriod * 1000,
      votes: [],
      announced: false,
    };
    this.store.save(state);
    this.#seen.set(proposalId, { proposal, from: this.ctx.id, deadline: state.deadline });
    await this.ctx.send("ocp.consensus.propose", BROADCAST, proposal, {
      deadline: state.deadline,
    });
    this.#arm(state);
    return proposalId;
  }

  async vote(
    proposalId: string,
    vote: "approve" | "reject" | "abstain",
    reasoning?: string,
  ): Promise<VoteMessage> {
    const seen = this.#seen.get(proposalId);
    if (seen === undefined) throw agentError("unknown_proposal", `no proposal ${proposalId}`);
    const payload = {
      proposalId,
      vote,
      votedBy: this.ctx.id,
      ...(reasoning === undefined ? {} : { reasoning }),
    };
    const message = await this.ctx.send("ocp.consensus.vote", BROADCAST, payload, {
      deadline: seen.deadline,
    });
    if (seen.from === this.ctx.id) await this.#count(message);
    return message;
  }

  /** Routes a consensus message; true when it was one. */
  async handle(
    message: MessageOf<
      | "ocp.consensus.propose"
      | "ocp.consensus.vote"
      | "ocp.consensus.achieved"
      | "ocp.consensus.timeout"
    >,
  ): Promise<void> {
    switch (message.type) {
      case "ocp.consensus.propose":
        if (!this.#seen.has(message.payload.proposalId)) {
          this.#seen.set(message.payload.proposalId, {
            proposal: message.payload,
            from: message.from,
            deadline: Date.parse(message.timestamp) + message.payload.votingPeriod * 1000,
          });
          this.events.proposal(message.payload, message.from);
        }
        return;
      case "ocp.consensus.vote":
        this.events.vote(message);
        if (this.#seen.get(message.payload.proposalId)?.from === this.ctx.id)
          await this.#count(message);
        return;
      default:
        await this.#learn(message);
    }
  }

  close(): void {
    this.#closed = true;
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }

  async #count(vote: VoteMessage): Promise<void> {
    const state = this.store.load(vote.payload.proposalId);
    if (state === undefined) return;
    const result = await countVote(state, vote, this.ctx.lookupKey, this.ctx.now());
    if (!result.ok) {
      this.events.voteRejected(vote, result.rejection);
      return;
    }
    this.store.save(state);
    if (state.decided !== undefined) await this.#announce(state);
  }

  #arm(state: ProposalState): void {
    const delay = Math.max(0, state.deadline - this.ctx.now());
    const timer = setTimeout(() => {
      this.#timers.delete(state.proposalId);
      const current = this.store.load(state.proposalId);
      if (current === undefined || current.decided !== undefined) return;
      expire(current);
      this.store.save(current);
      void this.#announce(current);
    }, delay);
    this.#timers.set(state.proposalId, timer);
  }

  async #announce(state: ProposalState): Promise<void> {
    const decided = state.decided as TallyResult;
    const timer = this.#timers.get(state.proposalId);
    if (timer !== undefined) clearTimeout(timer);
    const signedVotes = state.votes;
    try {
      if (decided.status === "achieved") {
        await this.ctx.send("ocp.consensus.achieved", BROADCAST, {
          proposalId: state.proposalId,
          outcome: decided.outcome,
          votes: decided.votes,
          voters: signedVotes.map((v) => v.from),
          achievedAt: new Date(this.ctx.now()).toISOString(),
          signedVotes,
        });
      } else if (decided.status === "timeout") {
        await this.ctx.send("ocp.consensus.timeout", BROADCAST, {
          proposalId: state.proposalId,
          votes: decided.votes,
          reason: decided.reason,
          signedVotes,
        });
      }
    } catch {
      // Not acknowledged (hub unreachable or restarting): the state stays
      // unannounced in the store and the announcement is retried.
      if (this.#closed) return;
      const retry = setTimeout(() => {
        this.#timers.delete(state.proposalId);
        void this.#announce(state);
      }, ANNOUNCE_RETRY_MS);
      this.#timers.set(state.proposalId, retry);
      return;
    }
    const latest = this.store.load(state.proposalId) ?? state;
    latest.announced = true;
    this.store.save(latest);
    this.events.decision({
      proposalId: state.proposalId,
      status: decided.status === "achieved" ? "achieved" : "timeout",
      ...(decided.status === "achieved" ? { outcome: decided.outcome } : {}),
      ...(decided.status === "timeout" ? { reason: decided.reason } : {}),
      votes: decided.votes,
      verified: true,
    });
  }

  async #learn(
    message: MessageOf<"ocp.consensus.achieved" | "ocp.consensus.timeout">,
  ): Promise<void> {
    const seen = this.#seen.get(message.payload.proposalId);
    const raw: unknown = Reflect.get(message.payload, "signedVotes");
    const signedVotes = Array.isArray(raw) ? (raw as VoteMessage[]) : [];
    const achieved = message.type === "ocp.consensus.achieved";
    const base = {
      proposalId: message.payload.proposalId,
      status: achieved ? ("achieved" as const) : ("timeout" as const),
      votes: message.payload.votes,
      ...(achieved
        ? { outcome: (message as MessageOf<"ocp.consensus.achieved">).payload.outcome }
        : {}),
      ...(!achieved
        ? { reason: (message as MessageOf<"ocp.consensus.timeout">).payload.reason }
        : {}),
    };
    if (seen === undefined || seen.from !== message.from) {
      this.events.decision({
        ...base,
        verified: false,
        verifyFailure: "proposal unknown or announced by another agent",
      });
      return;
    }
    const check = await verifyOutcome(
      seen.proposal,
      achieved
        ? {
            outcome: base.outcome,
            votes: base.votes,
            voters: (message as MessageOf<"ocp.consensus.achieved">).payload.voters,
          }
        : { votes: base.votes },
      signedVotes,
      this.ctx.lookupKey,
      !achieved,
    );
    this.events.decision(
      check.ok
        ? { ...base, verified: true }
        : { ...base, verified: false, verifyFailure: check.reason },
    );
  }
}
