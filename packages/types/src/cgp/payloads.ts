/**
 * The Context Graph Protocol's handshake, query and verify payloads (SPEC §3,
 * §4, §5, §9), at the interop level (`Cgp…Schema`: unknown members ignored,
 * open vocabularies open, missing booleans and lists defaulted) and the
 * authoring level (`CgpStrict…Schema`: upstream's published profile).
 */
import { z } from "zod";
import { NonEmptyStringSchema, U32Schema } from "../primitives.js";
import { CGP_TIMESTAMP_PATTERN, EMBEDDINGS_FINGERPRINT_PATTERN } from "./formats.js";
import { absentIfNull, CgpRepresentationSchema } from "./frame.js";
import {
  CGP_FRAME_KINDS,
  EGRESS_SCOPES,
  isRepresentation,
  NAMESPACED_PATTERN,
  VERDICT_STATUSES,
} from "./vocabulary.js";

/**
 * A list of representations as a receiver reads it: a name a later 1.x peer
 * adds is dropped rather than failing the whole message (U1's spirit, for a
 * list a receiver only chooses from), so what remains is one it knows.
 */
const RepresentationListSchema = z
  .array(z.string())
  .transform((names) => names.filter(isRepresentation));

/**
 * §4: what a provider does with data. `egress_scopes` is an open vocabulary
 * (U2): an unknown scope decodes, and reads as off-machine.
 */
export const CgpDataFlowSchema = z.object({
  reads: z.boolean().default(false),
  writes: z.boolean().default(false),
  egress: z.boolean().default(false),
  egress_scopes: absentIfNull(z.array(z.string())),
});
export type CgpDataFlow = z.infer<typeof CgpDataFlowSchema>;

export const CgpProviderInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  data_flow: CgpDataFlowSchema,
});
export type CgpProviderInfo = z.infer<typeof CgpProviderInfoSchema>;

/** The retrieval surface: the frame kinds a provider serves (any string, U2). */
export const CgpQueryCapabilitySchema = z.object({ kinds: z.array(z.string()).default([]) });

/**
 * What a provider can do (§3, §5.1, §6.4, §9). Every field defaults: a
 * provider that says nothing about `verify` does not verify, one that lists
 * no `representations` serves `full` only.
 */
export const CgpCapabilitiesSchema = z.object({
  query: CgpQueryCapabilitySchema.default({ kinds: [] }),
  correlation: z.boolean().default(false),
  graph: z.boolean().default(false),
  embeddings_fingerprint: z.string().nullish(),
  verify: z.boolean().default(false),
  representations: RepresentationListSchema.default([]),
  resolve: z.boolean().default(false),
});
export type CgpCapabilities = z.infer<typeof CgpCapabilitiesSchema>;

/**
 * §5: a retrieval request. `kinds` holds any string (a provider answers
 * `unsupported_kind` rather than failing to decode); `max_tokens` is a hard
 * contract.
 */
export const CgpQuerySchema = z.object({
  goal: z.string(),
  query_text: z.string().nullish(),
  embedding: z.array(z.number()).nullish(),
  kinds: z.array(z.string()).default([]),
  anchors: z.array(z.string()).default([]),
  max_frames: U32Schema,
  max_tokens: U32Schema,
  as_of: z.string().nullish(),
  representation_preferences: absentIfNull(RepresentationListSchema),
});
export type CgpQuery = z.infer<typeof CgpQuerySchema>;
export type CgpQueryInit = z.input<typeof CgpQuerySchema>;

/** §6.3: a frame's stable identity, (provider id, frame id, content digest). */
export const CgpFrameIdSchema = z.object({
  provider_id: z.string(),
  frame_id: z.string(),
  content_digest: z.string().nullish(),
});
export type CgpFrameId = z.infer<typeof CgpFrameIdSchema>;

/** §9 V1: the identities a host asks to revalidate — never bodies. */
export const CgpVerifyRequestSchema = z.object({ frames: z.array(CgpFrameIdSchema) });
export type CgpVerifyRequest = z.infer<typeof CgpVerifyRequestSchema>;

export const CgpVerdictStatusSchema = z.enum(VERDICT_STATUSES).meta({
  id: "VerdictStatus",
  description:
    "valid: unchanged, reusable. stale: changed. gone: no longer exists. unknown: cannot say, never validity.",
});

/** §9: one verdict, echoing the identity it answers in full. */
export const CgpFrameVerdictSchema = z.object({
  frame: CgpFrameIdSchema,
  status: CgpVerdictStatusSchema,
  replacement_digest: z.string().nullish(),
});
export type CgpFrameVerdict = z.infer<typeof CgpFrameVerdictSchema>;

export const CgpVerifyResponseSchema = z.object({ verdicts: z.array(CgpFrameVerdictSchema) });
export type CgpVerifyResponse = z.infer<typeof CgpVerifyResponseSchema>;

// ---- authoring level ---------------------------------------------------------

export const CgpStrictEgressScopeSchema = z
  .union([z.enum(EGRESS_SCOPES), z.string().regex(NAMESPACED_PATTERN)])
  .meta({
    id: "EgressScope",
    description:
      "Where served content may go: a base class or a namespaced custom scope (vendor:name).",
  });

export const CgpStrictDataFlowSchema = z
  .strictObject({
    reads: z.boolean(),
    writes: z.boolean(),
    egress: z.boolean(),
    egress_scopes: z.array(CgpStrictEgressScopeSchema).optional(),
  })
  .meta({ id: "DataFlow", description: "Declares what a provider does with data." });

export const CgpStrictProviderInfoSchema = z
  .strictObject({
    name: NonEmptyStringSchema,
    version: NonEmptyStringSchema,
    data_flow: CgpStrictDataFlowSchema,
  })
  .meta({ id: "ProviderInfo", description: "Provider identity and declared data flow." });

export const CgpStrictCapabilitiesSchema = z
  .strictObject({
    query: z.strictObject({ kinds: z.array(z.string()) }).meta({ id: "QueryCapability" }),
    correlation: z.boolean().optional(),
    graph: z.boolean().optional(),
    embeddings_fingerprint: z
      .string()
      .regex(EMBEDDINGS_FINGERPRINT_PATTERN)
      .meta({ description: "<model-id>/<dimensions>[/<normalization>] (SPEC E1)." })
      .nullish(),
    verify: z.boolean().optional(),
    representations: z.array(CgpRepresentationSchema).optional(),
    resolve: z.boolean().optional(),
  })
  .meta({ id: "Capabilities" });

export const CgpStrictQuerySchema = z
  .strictObject({
    goal: NonEmptyStringSchema,
    query_text: z.string().nullish(),
    embedding: z.array(z.number()).nullish(),
    kinds: z.array(z.enum(CGP_FRAME_KINDS)),
    anchors: z.array(z.string()),
    max_frames: U32Schema,
    max_tokens: U32Schema,
    as_of: z
      .string()
      .regex(CGP_TIMESTAMP_PATTERN)
      .meta({ description: "RFC 3339 UTC timestamp, uppercase T and Z (SPEC F4)." })
      .nullish(),
    representation_preferences: z.array(CgpRepresentationSchema).optional(),
  })
  .meta({ id: "ContextQuery", description: "A retrieval request with a hard token budget." });

export const CgpStrictFrameIdSchema = z
  .strictObject({
    provider_id: NonEmptyStringSchema,
    frame_id: NonEmptyStringSchema,
    content_digest: z.string().nullish(),
  })
  .meta({ id: "FrameId", description: "(provider id, frame id, content digest)." });

export const CgpStrictVerifyRequestSchema = z
  .strictObject({ frames: z.array(CgpStrictFrameIdSchema) })
  .meta({ id: "VerifyRequest" });

export const CgpStrictVerifyResponseSchema = z
  .strictObject({
    verdicts: z.array(
      z
        .strictObject({
          frame: CgpStrictFrameIdSchema,
          status: CgpVerdictStatusSchema,
          replacement_digest: z.string().nullish(),
        })
        .meta({ id: "FrameVerdict" }),
    ),
  })
  .meta({ id: "VerifyResponse" });
