import { z } from "zod";
import { MAX_BATCH_ITEMS } from "../limits.js";
import {
  AgentUriSchema,
  CountSchema,
  IdSchema,
  MetadataSchema,
  TimestampSchema,
  UnitIntervalSchema,
} from "./common.js";

/** §8.5: who may see a knowledge node. */
export const VISIBILITIES = ["private", "team", "workspace", "public"] as const;
export const VisibilitySchema = z.enum(VISIBILITIES);
export type Visibility = z.infer<typeof VisibilitySchema>;

/**
 * §5.1.1 KnowledgeNode with the §8.5 access fields. `visibility` is optional
 * on the wire because the specification's own §5.1.1 example omits it; the
 * access-control layer decides what an absent visibility means.
 */
export const KnowledgeNodeSchema = z
  .looseObject({
    id: IdSchema,
    type: z.string().min(1),
    title: z.string(),
    description: z.string().optional(),
    data: z.unknown(),
    confidence: UnitIntervalSchema,
    timestamp: TimestampSchema,
    createdBy: AgentUriSchema,
    tags: z.array(z.string()),
    metadata: MetadataSchema.optional(),
    visibility: VisibilitySchema.optional(),
    sharedWith: z.array(AgentUriSchema).optional(),
  })
  .meta({
    id: "KnowledgeNode",
    description: "§5.1.1 a unit of knowledge, with §8.5 access fields.",
  });
export type KnowledgeNode = z.infer<typeof KnowledgeNodeSchema>;

/** §5.1.1 KnowledgeEdge. */
export const KnowledgeEdgeSchema = z
  .looseObject({
    id: IdSchema,
    source: IdSchema,
    target: IdSchema,
    relationship: z.string().min(1),
    weight: UnitIntervalSchema,
    metadata: MetadataSchema.optional(),
  })
  .meta({ id: "KnowledgeEdge", description: "§5.1.1 a weighted relationship between two nodes." });
export type KnowledgeEdge = z.infer<typeof KnowledgeEdgeSchema>;

/** §5.1.1 one knowledge stream chunk. */
export const KnowledgeStreamPayloadSchema = z
  .looseObject({
    batched: z.literal(false).optional(),
    streamId: IdSchema,
    nodes: z.array(KnowledgeNodeSchema),
    edges: z.array(KnowledgeEdgeSchema).optional(),
    isIncremental: z.boolean(),
    sequenceNumber: CountSchema,
    checksum: z.string().min(1).optional(),
  })
  .meta({ id: "KnowledgeStreamPayload", description: "§5.1.1 ocp.knowledge.stream" });
export type KnowledgeStreamPayload = z.infer<typeof KnowledgeStreamPayloadSchema>;

/** §12.1 several stream chunks in one message. */
export const BatchedKnowledgeStreamPayloadSchema = z
  .looseObject({
    batched: z.literal(true),
    items: z.array(KnowledgeStreamPayloadSchema).min(1).max(MAX_BATCH_ITEMS),
  })
  .meta({ id: "BatchedKnowledgeStreamPayload", description: "§12.1 batched ocp.knowledge.stream" });
export type BatchedKnowledgeStreamPayload = z.infer<typeof BatchedKnowledgeStreamPayloadSchema>;

/** The payload of `ocp.knowledge.stream`: one chunk, or a batch of them. */
export const KnowledgeStreamMessagePayloadSchema = z.discriminatedUnion("batched", [
  BatchedKnowledgeStreamPayloadSchema,
  KnowledgeStreamPayloadSchema,
]);

/** §5.1.2 */
export const KnowledgeSubscribePayloadSchema = z
  .looseObject({
    subscriptionId: IdSchema,
    filters: z
      .looseObject({
        domains: z.array(z.string()).optional(),
        nodeTypes: z.array(z.string()).optional(),
        tags: z.array(z.string()).optional(),
        minConfidence: UnitIntervalSchema.optional(),
      })
      .optional(),
    deliveryMode: z.enum(["push", "pull"]),
    batchSize: z.number().int().min(1).max(MAX_BATCH_ITEMS).optional(),
    frequency: z.number().positive().optional(),
  })
  .meta({ id: "KnowledgeSubscribePayload", description: "§5.1.2 ocp.knowledge.subscribe" });
export type KnowledgeSubscribePayload = z.infer<typeof KnowledgeSubscribePayloadSchema>;

/** §5.1.3 */
export const KnowledgeUnsubscribePayloadSchema = z
  .looseObject({ subscriptionId: IdSchema })
  .meta({ id: "KnowledgeUnsubscribePayload", description: "§5.1.3 ocp.knowledge.unsubscribe" });
export type KnowledgeUnsubscribePayload = z.infer<typeof KnowledgeUnsubscribePayloadSchema>;

/** A version vector: agent or replica id → counter. */
export const VersionVectorSchema = z.record(z.string(), CountSchema);

/** §5.1.4 */
export const KnowledgeSyncRequestPayloadSchema = z
  .looseObject({
    syncId: IdSchema,
    versionVector: VersionVectorSchema.optional(),
    filters: z
      .looseObject({
        domains: z.array(z.string()).optional(),
        updatedAfter: TimestampSchema.optional(),
      })
      .optional(),
  })
  .meta({ id: "KnowledgeSyncRequestPayload", description: "§5.1.4 ocp.knowledge.sync.request" });
export type KnowledgeSyncRequestPayload = z.infer<typeof KnowledgeSyncRequestPayloadSchema>;

/** §5.1.5 */
export const KnowledgeSyncResponsePayloadSchema = z
  .looseObject({
    syncId: IdSchema,
    nodes: z.array(KnowledgeNodeSchema),
    edges: z.array(KnowledgeEdgeSchema),
    versionVector: VersionVectorSchema,
    isComplete: z.boolean(),
    checksum: z.string().min(1),
  })
  .meta({ id: "KnowledgeSyncResponsePayload", description: "§5.1.5 ocp.knowledge.sync.response" });
export type KnowledgeSyncResponsePayload = z.infer<typeof KnowledgeSyncResponsePayloadSchema>;

/** §5.1.6 NodeUpdate: `changes` is a `Partial<KnowledgeNode>`. */
export const NodeUpdateSchema = z
  .looseObject({
    nodeId: IdSchema,
    changes: KnowledgeNodeSchema.partial(),
    changeType: z.enum(["modified", "status_changed", "metadata_updated"]),
  })
  .meta({ id: "NodeUpdate", description: "§5.1.6 a change to one node." });
export type NodeUpdate = z.infer<typeof NodeUpdateSchema>;

/** §5.1.6 */
export const KnowledgeUpdatePayloadSchema = z
  .looseObject({
    updates: z.array(NodeUpdateSchema),
    deletions: z.array(IdSchema),
    newEdges: z.array(KnowledgeEdgeSchema),
    deletedEdges: z.array(IdSchema),
  })
  .meta({ id: "KnowledgeUpdatePayload", description: "§5.1.6 ocp.knowledge.update" });
export type KnowledgeUpdatePayload = z.infer<typeof KnowledgeUpdatePayloadSchema>;

/** §5.1.7 */
export const KnowledgeConflictPayloadSchema = z
  .looseObject({
    conflictId: IdSchema,
    nodeId: IdSchema,
    localVersion: KnowledgeNodeSchema,
    remoteVersion: KnowledgeNodeSchema,
    conflictType: z.enum(["content", "contradiction", "version"]),
    suggestedResolution: KnowledgeNodeSchema.optional(),
  })
  .meta({ id: "KnowledgeConflictPayload", description: "§5.1.7 ocp.knowledge.conflict" });
export type KnowledgeConflictPayload = z.infer<typeof KnowledgeConflictPayloadSchema>;

/** §12.4 backpressure on a knowledge stream. */
export const KnowledgeControlPayloadSchema = z
  .looseObject({
    streamId: IdSchema,
    action: z.enum(["pause", "resume", "cancel"]),
  })
  .meta({ id: "KnowledgeControlPayload", description: "§12.4 ocp.knowledge.control" });
export type KnowledgeControlPayload = z.infer<typeof KnowledgeControlPayloadSchema>;
