import { z } from "zod";
import { NonEmptyStringSchema, U32Schema } from "./primitives.js";
import { omittedWhenEmpty } from "./wire-lists.js";

/** What a frame represents. A closed set: any other kind fails to decode. */
export const FRAME_KINDS = [
  "snippet",
  "symbol",
  "fact",
  "doc",
  "memory",
  "episode",
  "graph",
] as const;
export const FrameKindSchema = z.enum(FRAME_KINDS).meta({ id: "FrameKind" });
export type FrameKind = z.infer<typeof FrameKindSchema>;

/**
 * One origin entry of a frame. The reference names the field `kind` in Rust
 * and writes it as `type`; we keep the wire name.
 */
export const ProvenanceSchema = z.object({
  type: z.string(),
  uri: z.string().nullish(),
  range: z.string().nullish(),
  digest: z.string().nullish(),
  method: z.string().nullish(),
  by: z.string().nullish(),
});
export type Provenance = z.infer<typeof ProvenanceSchema>;

export const StrictProvenanceSchema = ProvenanceSchema.extend({
  type: NonEmptyStringSchema,
}).meta({
  id: "Provenance",
  description: "An origin entry for a frame. The Rust field `kind` is `type` on the wire.",
});

/** A graph edge, surfaced by its human `display_name`, never a raw id. */
export const RelationSchema = z.object({
  rel: z.string(),
  target_uri: z.string(),
  display_name: z.string().nullish(),
});
export type Relation = z.infer<typeof RelationSchema>;

export const StrictRelationSchema = RelationSchema.extend({
  rel: NonEmptyStringSchema,
  target_uri: NonEmptyStringSchema,
}).meta({ id: "Relation" });

/** A frame embedding; the vector is elidable, the fingerprint identifies it. */
export const FrameEmbeddingSchema = z.object({
  fingerprint: z.string(),
  vector: z.array(z.number()).nullish(),
});
export type FrameEmbedding = z.infer<typeof FrameEmbeddingSchema>;

export const StrictFrameEmbeddingSchema = FrameEmbeddingSchema.extend({
  fingerprint: NonEmptyStringSchema,
}).meta({ id: "FrameEmbedding" });

/**
 * The members a frame of either family (`ocp/1` and `contextgraph/1`) ends
 * with, at the level a receiver decodes: validity, provenance, citation,
 * embedding and relations. Not exported from the package.
 */
export const FRAME_TAIL = {
  valid_from: z.string().nullish(),
  valid_to: z.string().nullish(),
  recorded_at: z.string().nullish(),
  provenance: z.array(ProvenanceSchema).default([]),
  citation_label: z.string().nullish(),
  embedding: FrameEmbeddingSchema.nullish(),
  relations: z.array(RelationSchema).default([]),
};

/**
 * The unit of exchange. Decoding is structural, as in the reference: a frame
 * whose score is 1.5 or whose citation label is empty still decodes, so the
 * host or the conformance suite can say exactly what is wrong with it
 * ({@link validateFrame}). `content` is untrusted data (R3). Empty
 * `provenance` and `relations` are left off the wire.
 */
export const ContextFrameSchema = z.object({
  id: z.string(),
  kind: FrameKindSchema,
  title: z.string(),
  content: z.string(),
  uri: z.string().nullish(),
  score: z.number(),
  token_cost: U32Schema,
  ...FRAME_TAIL,
  // ocp/1 leaves these two off the wire when empty (the reference), contextgraph/1 keeps
  // them: marked on schemas of their own, in their places in FRAME_TAIL's order.
  provenance: omittedWhenEmpty(z.array(ProvenanceSchema).default([])),
  relations: omittedWhenEmpty(z.array(RelationSchema).default([])),
});
export type ContextFrame = z.infer<typeof ContextFrameSchema>;
/** A frame as a producer may write it: defaulted fields may be left out. */
export type ContextFrameInit = z.input<typeof ContextFrameSchema>;

/**
 * The conformance level of a frame (F1-F3 and the structural rules of the
 * reference schema): score in [0, 1], non-empty id, title and citation label.
 */
export const StrictContextFrameSchema = ContextFrameSchema.extend({
  id: NonEmptyStringSchema,
  title: NonEmptyStringSchema,
  score: z.number().min(0).max(1),
  provenance: omittedWhenEmpty(z.array(StrictProvenanceSchema).default([])),
  citation_label: NonEmptyStringSchema.nullish(),
  embedding: StrictFrameEmbeddingSchema.nullish(),
  relations: omittedWhenEmpty(z.array(StrictRelationSchema).default([])),
}).meta({
  id: "ContextFrame",
  description:
    "The unit of exchange: relevance, cost, provenance and validity. content is untrusted data.",
});

/** F1: whether a frame's score lies in [0, 1]. */
export function hasValidScore(frame: Pick<ContextFrame, "score">): boolean {
  return Number.isFinite(frame.score) && frame.score >= 0 && frame.score <= 1;
}
