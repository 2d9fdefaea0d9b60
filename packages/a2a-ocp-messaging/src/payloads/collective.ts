import { z } from "zod";
import {
  AgentUriSchema,
  CountSchema,
  IdSchema,
  MetadataSchema,
  NonNegativeSchema,
  TimestampSchema,
  UnitIntervalSchema,
} from "./common.js";
import { KnowledgeNodeSchema } from "./knowledge.js";

/** §5.2.1 */
export const CollectiveQueryPayloadSchema = z
  .looseObject({
    queryId: IdSchema,
    query: z.string().min(1),
    structuredQuery: z
      .looseObject({
        intent: z.string().min(1),
        domains: z.array(z.string()),
        keywords: z.array(z.string()),
        filters: MetadataSchema.optional(),
      })
      .optional(),
    /** Longest wait for responses, in milliseconds. */
    timeout: z.number().int().positive(),
    minResponses: z.number().int().min(1).optional(),
    maxResponses: z.number().int().min(1).optional(),
  })
  .refine(
    (p) =>
      p.minResponses === undefined ||
      p.maxResponses === undefined ||
      p.minResponses <= p.maxResponses,
    {
      message: "minResponses must not exceed maxResponses",
      path: ["minResponses"],
    },
  )
  .meta({ id: "CollectiveQueryPayload", description: "§5.2.1 ocp.collective.query" });
export type CollectiveQueryPayload = z.infer<typeof CollectiveQueryPayloadSchema>;

/** §5.2.2 QueryFinding */
export const QueryFindingSchema = z
  .looseObject({
    node: KnowledgeNodeSchema,
    relevance: UnitIntervalSchema,
    excerpt: z.string().optional(),
    context: z.string().optional(),
  })
  .meta({ id: "QueryFinding", description: "§5.2.2 one node found for a collective query." });
export type QueryFinding = z.infer<typeof QueryFindingSchema>;

/** §5.2.2 */
export const CollectiveResponsePayloadSchema = z
  .looseObject({
    queryId: IdSchema,
    findings: z.array(QueryFindingSchema),
    confidence: UnitIntervalSchema,
    /** Milliseconds. */
    processingTime: NonNegativeSchema,
    metadata: z
      .looseObject({
        nodesSearched: CountSchema,
        relevanceScores: z.array(UnitIntervalSchema),
      })
      .optional(),
  })
  .meta({ id: "CollectiveResponsePayload", description: "§5.2.2 ocp.collective.response" });
export type CollectiveResponsePayload = z.infer<typeof CollectiveResponsePayloadSchema>;

/** §5.2.3 */
export const CollectiveSynthesisPayloadSchema = z
  .looseObject({
    queryId: IdSchema,
    answer: z.string(),
    keyPoints: z.array(z.string()).optional(),
    confidence: UnitIntervalSchema,
    consensus: z.array(z.string()),
    dissent: z.array(z.string()),
    recommendations: z.array(z.string()).optional(),
    sources: z.array(AgentUriSchema),
    timestamp: TimestampSchema,
  })
  .meta({ id: "CollectiveSynthesisPayload", description: "§5.2.3 ocp.collective.synthesis" });
export type CollectiveSynthesisPayload = z.infer<typeof CollectiveSynthesisPayloadSchema>;
