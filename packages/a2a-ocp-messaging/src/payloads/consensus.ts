import { z } from "zod";
import {
  AgentUriSchema,
  CountSchema,
  IdSchema,
  TimestampSchema,
  UnitIntervalSchema,
} from "./common.js";

/** Vote tallies shared by §5.3.3 and §5.3.4. */
export const VoteCountsSchema = z
  .looseObject({ approve: CountSchema, reject: CountSchema, abstain: CountSchema })
  .meta({ id: "VoteCounts", description: "Votes cast per choice." });
export type VoteCounts = z.infer<typeof VoteCountsSchema>;

/**
 * §5.3.1. `threshold` is required exactly when `votingRule` is `"threshold"`
 * (the specification: "for threshold voting"); without it the rule has no
 * meaning.
 */
export const ConsensusProposePayloadSchema = z
  .looseObject({
    proposalId: IdSchema,
    topic: z.string().min(1),
    proposal: z.unknown(),
    /** Seconds. */
    votingPeriod: z.number().positive(),
    requiredVotes: z.number().int().min(1),
    votingRule: z.enum(["majority", "unanimous", "threshold"]),
    threshold: UnitIntervalSchema.optional(),
  })
  .refine((p) => (p.votingRule === "threshold") === (p.threshold !== undefined), {
    message: 'threshold is required for, and only for, votingRule "threshold"',
    path: ["threshold"],
  })
  .meta({ id: "ConsensusProposePayload", description: "§5.3.1 ocp.consensus.propose" });
export type ConsensusProposePayload = z.infer<typeof ConsensusProposePayloadSchema>;

/** §5.3.2 */
export const ConsensusVotePayloadSchema = z
  .looseObject({
    proposalId: IdSchema,
    vote: z.enum(["approve", "reject", "abstain"]),
    reasoning: z.string().optional(),
    votedBy: AgentUriSchema,
  })
  .meta({ id: "ConsensusVotePayload", description: "§5.3.2 ocp.consensus.vote" });
export type ConsensusVotePayload = z.infer<typeof ConsensusVotePayloadSchema>;

/** §5.3.3 */
export const ConsensusAchievedPayloadSchema = z
  .looseObject({
    proposalId: IdSchema,
    outcome: z.enum(["approved", "rejected"]),
    votes: VoteCountsSchema,
    voters: z.array(AgentUriSchema),
    achievedAt: TimestampSchema,
  })
  .meta({ id: "ConsensusAchievedPayload", description: "§5.3.3 ocp.consensus.achieved" });
export type ConsensusAchievedPayload = z.infer<typeof ConsensusAchievedPayloadSchema>;

/** §5.3.4 */
export const ConsensusTimeoutPayloadSchema = z
  .looseObject({
    proposalId: IdSchema,
    votes: VoteCountsSchema,
    reason: z.string(),
  })
  .meta({ id: "ConsensusTimeoutPayload", description: "§5.3.4 ocp.consensus.timeout" });
export type ConsensusTimeoutPayload = z.infer<typeof ConsensusTimeoutPayloadSchema>;
