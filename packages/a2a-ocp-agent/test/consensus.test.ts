import type { ConsensusProposePayload } from "@ocp/a2a-ocp-messaging";
import { createMessage, generateIdentity, signObject } from "@ocp/a2a-ocp-messaging";
import { describe, expect, it } from "vitest";
import {
  type ConsensusStore,
  countVote,
  countVotes,
  expire,
  MemoryConsensusStore,
  type ProposalState,
  tally,
  type VoteMessage,
  verifyOutcome,
} from "../src/consensus.js";

const proposal = (over: Partial<ConsensusProposePayload>): ConsensusProposePayload => ({
  proposalId: "p1",
  topic: "Switch to PostgreSQL",
  proposal: { decision: "migrate" },
  votingPeriod: 60,
  requiredVotes: 3,
  votingRule: "majority",
  ...over,
});

type Choice = "approve" | "reject" | "abstain";
const A = "approve" as const;
const R = "reject" as const;
const X = "abstain" as const;

describe("consensus rules (tally table)", () => {
  const rows: Array<[string, Partial<ConsensusProposePayload>, Choice[], boolean, string]> = [
    ["majority: more approvals than rejections approves", {}, [A, A, R], false, "approved"],
    ["majority: more rejections rejects", {}, [R, R, A], false, "rejected"],
    ["majority: a tie decides nothing while open", { requiredVotes: 2 }, [A, R], false, "pending"],
    [
      "majority: a tie at the end of the period times out",
      { requiredVotes: 2 },
      [A, R],
      true,
      "timeout",
    ],
    [
      "majority: abstentions count toward quorum but not either way",
      {},
      [A, X, X],
      false,
      "approved",
    ],
    ["majority: only abstentions time out at the end", {}, [X, X, X], true, "timeout"],
    ["quorum not met: nothing is decided while open", {}, [A, A], false, "pending"],
    ["quorum not met at the end of the period: timeout", {}, [A, A], true, "timeout"],
    [
      "unanimous: all approve (abstentions allowed) approves",
      { votingRule: "unanimous" },
      [A, A, X],
      false,
      "approved",
    ],
    ["unanimous: one rejection rejects", { votingRule: "unanimous" }, [A, A, R], false, "rejected"],
    [
      "unanimous: only abstentions decide nothing",
      { votingRule: "unanimous" },
      [X, X, X],
      false,
      "pending",
    ],
    [
      "threshold: a ratio exactly at the threshold approves (>=)",
      { votingRule: "threshold", threshold: 2 / 3 },
      [A, A, R],
      false,
      "approved",
    ],
    [
      "threshold: a ratio just below the threshold rejects",
      { votingRule: "threshold", threshold: 0.75 },
      [A, A, R, X],
      false,
      "rejected",
    ],
    [
      "threshold: abstentions are excluded from the ratio",
      { votingRule: "threshold", threshold: 1 },
      [A, X, X],
      false,
      "approved",
    ],
    [
      "threshold 0 approves with any non-abstaining vote",
      { votingRule: "threshold", threshold: 0, requiredVotes: 1 },
      [R],
      false,
      "approved",
    ],
  ];
  for (const [name, over, choices, ended, expected] of rows) {
    it(name, () => {
      const result = tally(proposal(over), countVotes(choices), ended);
      expect(result.status === "achieved" ? result.outcome : result.status).toBe(expected);
    });
  }
});

describe("counting signed votes", () => {
  const agents = ["a2a://v1", "a2a://v2", "a2a://v3", "a2a://v4"].map((id) => generateIdentity(id));
  const keys = new Map(agents.map((a) => [a.id, a.publicKey]));
  const lookup = (id: string) => keys.get(id);
  const vote = (index: number, choice: Choice, proposalId = "p1"): VoteMessage => {
    const agent = agents[index];
    if (agent === undefined) throw new Error("no agent");
    const message = createMessage({
      type: "ocp.consensus.vote",
      from: agent.id,
      to: "broadcast",
      payload: { proposalId, vote: choice, votedBy: agent.id },
    });
    return signObject(message, agent.secretKey) as VoteMessage;
  };
  const state = (over: Partial<ConsensusProposePayload> = {}): ProposalState => ({
    proposalId: "p1",
    proposer: "a2a://v1",
    proposal: proposal(over),
    deadline: 10_000,
    votes: [],
    announced: false,
  });

  it("a second vote of the same agent is rejected as duplicate_vote and the first one counts", async () => {
    const s = state({ requiredVotes: 2 });
    expect((await countVote(s, vote(0, A), lookup, 0)).ok).toBe(true);
    const second = await countVote(s, vote(0, R), lookup, 0);
    expect(second.ok ? undefined : second.rejection.code).toBe("duplicate_vote");
    expect(s.votes.map((v) => v.payload.vote)).toEqual([A]);
  });

  it("a forged vote (payload changed after signing) is rejected as vote_rejected", async () => {
    const s = state();
    const forged = {
      ...vote(1, R),
      payload: { proposalId: "p1", vote: A, votedBy: "a2a://v2" },
    } as VoteMessage;
    const result = await countVote(s, forged, lookup, 0);
    expect(result.ok ? undefined : result.rejection.code).toBe("vote_rejected");
    expect(s.votes).toHaveLength(0);
  });

  it("a vote signed by one agent in the name of another is rejected", async () => {
    const s = state();
    const agent = agents[2];
    if (agent === undefined) throw new Error("no agent");
    const message = createMessage({
      type: "ocp.consensus.vote",
      from: agent.id,
      to: "broadcast",
      payload: { proposalId: "p1", vote: A, votedBy: "a2a://v3x" },
    });
    const result = await countVote(
      s,
      signObject(message, agent.secretKey) as VoteMessage,
      lookup,
      0,
    );
    expect(result.ok ? undefined : result.rejection.code).toBe("vote_rejected");
  });

  it("a vote after the decision or after the voting period is late: proposal_closed", async () => {
    const s = state({ requiredVotes: 1 });
    expect((await countVote(s, vote(0, A), lookup, 0)).ok).toBe(true);
    expect(s.decided?.status).toBe("achieved");
    const late = await countVote(s, vote(1, R), lookup, 0);
    expect(late.ok ? undefined : late.rejection.code).toBe("proposal_closed");
    const open = state();
    const afterPeriod = await countVote(open, vote(1, R), lookup, 10_000);
    expect(afterPeriod.ok ? undefined : afterPeriod.rejection.code).toBe("proposal_closed");
  });

  it("an outcome is verified from the signed votes alone, and a tampered tally is caught", async () => {
    const s = state();
    for (const [i, c] of [
      [0, A],
      [1, R],
      [2, A],
    ] as const)
      await countVote(s, vote(i, c), lookup, 0);
    const decided = s.decided;
    if (decided?.status !== "achieved") throw new Error("not decided");
    const voters = s.votes.map((v) => v.from);
    const good = await verifyOutcome(
      s.proposal,
      { outcome: decided.outcome, votes: decided.votes, voters },
      s.votes,
      lookup,
      false,
    );
    expect(good).toEqual({ ok: true });
    const lie = await verifyOutcome(
      s.proposal,
      { outcome: "rejected", votes: decided.votes, voters },
      s.votes,
      lookup,
      false,
    );
    expect(lie.ok).toBe(false);
    const padded = await verifyOutcome(
      s.proposal,
      { outcome: decided.outcome, votes: { approve: 3, reject: 1, abstain: 0 }, voters },
      [...s.votes, { ...vote(3, A), signature: vote(3, R).signature } as VoteMessage],
      lookup,
      false,
    );
    expect(padded.ok).toBe(false);
  });

  it("the period's end turns an undecided proposal into a timeout, and the state survives a store round trip", () => {
    const store: ConsensusStore = new MemoryConsensusStore();
    const s = state();
    store.save(s);
    const restored = store.load("p1");
    if (restored === undefined) throw new Error("lost");
    expect(expire(restored).status).toBe("timeout");
    expect(store.pending().map((p) => p.proposalId)).toEqual(["p1"]);
  });
});
