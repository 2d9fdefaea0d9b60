/**
 * The Context Graph Protocol frame (SPEC §6) and its nested objects, at two
 * levels:
 *
 * - the interop level (`Cgp…Schema`), what a receiver decodes a peer's
 *   message with: unknown members are ignored (U1), an unknown `kind` or `rel`
 *   is kept (U2), and a frame that breaks F1–F5, D1, G1–G2 or P1–P4 still
 *   decodes so the receiver can name the rule it breaks
 *   ({@link cgpFrameViolations});
 * - the authoring level (`CgpStrict…Schema`), a lint for what we write:
 *   unknown members are errors, as in upstream's published JSON Schema.
 */
import { z } from "zod";
import { FRAME_TAIL, FrameEmbeddingSchema, ProvenanceSchema, RelationSchema } from "../frame.js";
import { NonEmptyStringSchema, U32Schema } from "../primitives.js";
import { CGP_TIMESTAMP_PATTERN, DIGEST_PATTERN } from "./formats.js";
import { CGP_FRAME_KINDS, REPRESENTATIONS } from "./vocabulary.js";

const CONTENT_FIDELITIES = ["exact", "normalized", "summarized", "omitted"] as const;
const INLINE_CONTENT_REQUIREMENTS = ["required", "resolvable_reference_allowed"] as const;

/**
 * An optional member as a receiver reads it: `null` is the same as absent (a
 * Rust `Option` peer may write either), and reads back as `undefined`.
 */
export function absentIfNull<T extends z.ZodType>(schema: T) {
  return schema
    .nullish()
    .transform((value) => value ?? undefined)
    .optional();
}

export const CgpRepresentationSchema = z.enum(REPRESENTATIONS).meta({
  id: "Representation",
  description:
    "How a frame carries content. Absent on the wire means full; compact inlines a transformed rendering plus a resolver handle; reference carries no inline content.",
});

/**
 * One origin entry; the wire name of its kind is `type` (F5 holds `file`
 * entries to a digest). The same members as `ocp/1`'s: one schema for both.
 */
export const CgpProvenanceSchema = ProvenanceSchema;
export type CgpProvenance = z.infer<typeof CgpProvenanceSchema>;

/** A graph edge (§8). `rel` is an open vocabulary; G1 wants a `display_name`. As in `ocp/1`. */
export const CgpRelationSchema = RelationSchema;
export type CgpRelation = z.infer<typeof CgpRelationSchema>;

/** A frame embedding, as in `ocp/1`: the vector is elidable, the fingerprint identifies it. */
export const CgpFrameEmbeddingSchema = FrameEmbeddingSchema;
export type CgpFrameEmbedding = z.infer<typeof CgpFrameEmbeddingSchema>;

/** §6.4.1: an opaque resolver handle for a compact or reference frame's full source. */
export const CgpContentRefSchema = z.object({
  provider_id: z.string(),
  uri: z.string(),
  expires_at: z.string().nullish(),
});
export type CgpContentRef = z.infer<typeof CgpContentRefSchema>;

/** §6.4: the transformation a compact frame applied to its source. */
export const CgpTransformSchema = z.object({
  method: z.string(),
  implementation: z.string(),
  version: z.string(),
});
export type CgpTransform = z.infer<typeof CgpTransformSchema>;

/**
 * A frame, interop level. `kind` is any string: an unknown kind is opaque
 * evidence (U2, see {@link isKnownFrameKind}). `content` is optional because a
 * `reference` frame carries none (P3); `representation` absent means `full`.
 * `content` is untrusted data (R3).
 */
export const CgpFrameSchema = z.object({
  id: z.string(),
  kind: z.string(),
  title: z.string(),
  content: absentIfNull(z.string()),
  content_digest: z.string().nullish(),
  uri: z.string().nullish(),
  representation: absentIfNull(CgpRepresentationSchema),
  content_fidelity: absentIfNull(z.string()),
  canonical_content_hash: absentIfNull(z.string()),
  content_ref: absentIfNull(CgpContentRefSchema),
  transform: absentIfNull(CgpTransformSchema),
  minimum_content_fidelity: absentIfNull(z.string()),
  inline_content_requirement: absentIfNull(z.string()),
  score: z.number(),
  token_cost: U32Schema,
  canonical_token_cost: absentIfNull(U32Schema),
  tokenizer_ref: absentIfNull(z.string()),
  ...FRAME_TAIL,
});
export type CgpFrame = z.infer<typeof CgpFrameSchema>;
/** A frame as a producer may write it: defaulted fields may be left out. */
export type CgpFrameInit = z.input<typeof CgpFrameSchema>;

/** The answer to a query (interop level). */
export const CgpQueryResultSchema = z.object({
  frames: z.array(CgpFrameSchema),
  truncated: z.boolean(),
  dropped_estimate: U32Schema.nullish(),
});
export type CgpQueryResult = z.infer<typeof CgpQueryResultSchema>;

// ---- authoring level: additionalProperties false throughout -----------------

const TimestampSchema = z.string().regex(CGP_TIMESTAMP_PATTERN).meta({
  description: "RFC 3339 UTC timestamp, uppercase T and Z (SPEC F4).",
});

export const CgpStrictProvenanceSchema = z
  .strictObject({
    type: NonEmptyStringSchema,
    uri: z.string().nullish(),
    range: z.string().nullish(),
    digest: z
      .string()
      .regex(DIGEST_PATTERN)
      .meta({ description: "sha256:<64 lowercase hex> (SPEC F5)." })
      .nullish(),
    method: z.string().nullish(),
    by: z.string().nullish(),
  })
  .meta({ id: "Provenance", description: "An origin entry; the Rust field `kind` is `type`." });

export const CgpStrictRelationSchema = z
  .strictObject({
    rel: NonEmptyStringSchema,
    target_uri: NonEmptyStringSchema,
    display_name: z.string().nullish(),
  })
  .meta({ id: "Relation", description: "A graph edge, surfaced by its human display_name." });

export const CgpStrictFrameEmbeddingSchema = z
  .strictObject({ fingerprint: NonEmptyStringSchema, vector: z.array(z.number()).nullish() })
  .meta({ id: "FrameEmbedding" });

export const CgpStrictContentRefSchema = z
  .strictObject({
    provider_id: NonEmptyStringSchema,
    uri: NonEmptyStringSchema,
    expires_at: z.string().nullish(),
  })
  .meta({ id: "ContentRef", description: "An opaque resolver handle (SPEC §6.4.1)." });

export const CgpStrictTransformSchema = z
  .strictObject({
    method: NonEmptyStringSchema,
    implementation: NonEmptyStringSchema,
    version: NonEmptyStringSchema,
  })
  .meta({ id: "Transform" });

const ContentFidelitySchema = z.enum(CONTENT_FIDELITIES).meta({ id: "ContentFidelity" });

/**
 * A frame, authoring level: the structure of upstream's schema (score in
 * [0, 1], non-empty labels, F4 timestamps, F5 provenance digests) plus its
 * per-representation requirements (checked here by a refinement; the JSON
 * Schema carries them as `allOf` conditionals).
 */
export const CgpStrictFrameSchema = z
  .strictObject({
    id: NonEmptyStringSchema,
    kind: z.enum(CGP_FRAME_KINDS).meta({ id: "FrameKind" }),
    title: NonEmptyStringSchema,
    content: z.string().optional(),
    content_digest: NonEmptyStringSchema.nullish(),
    uri: z.string().nullish(),
    representation: CgpRepresentationSchema.optional(),
    content_fidelity: ContentFidelitySchema.optional(),
    canonical_content_hash: NonEmptyStringSchema.optional(),
    content_ref: CgpStrictContentRefSchema.optional(),
    transform: CgpStrictTransformSchema.optional(),
    minimum_content_fidelity: ContentFidelitySchema.optional(),
    inline_content_requirement: z
      .enum(INLINE_CONTENT_REQUIREMENTS)
      .meta({ id: "InlineContentRequirement" })
      .optional(),
    score: z.number().min(0).max(1),
    token_cost: U32Schema,
    canonical_token_cost: U32Schema.optional(),
    tokenizer_ref: NonEmptyStringSchema.optional(),
    valid_from: TimestampSchema.nullish(),
    valid_to: TimestampSchema.nullish(),
    recorded_at: TimestampSchema.nullish(),
    provenance: z.array(CgpStrictProvenanceSchema).optional(),
    citation_label: NonEmptyStringSchema.nullish(),
    embedding: CgpStrictFrameEmbeddingSchema.nullish(),
    relations: z.array(CgpStrictRelationSchema).optional(),
  })
  .superRefine((frame, ctx) => {
    const has = (key: keyof typeof frame) => frame[key] !== undefined;
    const demand = (keys: readonly (keyof typeof frame)[], why: string) => {
      for (const key of keys) {
        if (!has(key)) ctx.addIssue({ code: "custom", path: [key], message: `required ${why}` });
      }
    };
    if (frame.representation === "reference") {
      demand(["content_ref", "canonical_content_hash"], "on a reference frame");
      for (const key of ["content", "content_digest", "transform"] as const) {
        if (has(key)) {
          ctx.addIssue({
            code: "custom",
            path: [key],
            message: "not allowed on a reference frame",
          });
        }
      }
    } else if (frame.representation === "compact") {
      demand(
        ["content", "content_digest", "canonical_content_hash", "transform", "content_ref"],
        "on a compact frame",
      );
    } else {
      demand(["content"], "on a full frame");
    }
  })
  .meta({
    id: "ContextFrame",
    description:
      "The unit of exchange: relevance, cost, provenance and validity. content is untrusted data.",
  });

export const CgpStrictQueryResultSchema = z
  .strictObject({
    frames: z.array(CgpStrictFrameSchema),
    truncated: z.boolean(),
    dropped_estimate: U32Schema.nullish(),
  })
  .meta({ id: "ContextQueryResult" });
