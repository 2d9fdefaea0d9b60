/**
 * The Context Graph Protocol envelopes (SPEC §2.1): `handshake`,
 * `handshake_ack`, `query`, `frames`, `verify`, `verified`, `shutdown`,
 * `error`, each tagged by `type`. {@link CgpEnvelopeSchema} is the interop
 * level a receiver decodes with (through {@link decodeCgpEnvelope}, which
 * also keeps an unknown `type`); {@link CgpStrictEnvelopeSchema} is the
 * authoring level `schema/contextgraph-envelope.schema.json` is generated
 * from.
 */
import { z } from "zod";
// §3.2: a correlation id, opaque and host-generated, bounded as `ocp/1`'s (one schema for both)
// so a peer cannot make a receiver hold megabytes of ids.
import { CorrelationIdSchema } from "../envelope.js";
import { CGP_VERSION_PATTERN } from "../family.js";
import { NonEmptyStringSchema } from "../primitives.js";
import { CgpQueryResultSchema, CgpStrictQueryResultSchema } from "./frame.js";
import {
  CgpCapabilitiesSchema,
  CgpProviderInfoSchema,
  CgpQuerySchema,
  CgpStrictCapabilitiesSchema,
  CgpStrictProviderInfoSchema,
  CgpStrictQuerySchema,
  CgpStrictVerifyRequestSchema,
  CgpStrictVerifyResponseSchema,
  CgpVerifyRequestSchema,
  CgpVerifyResponseSchema,
} from "./payloads.js";

/** The `type` tags this revision defines, in SPEC order. */
export const CGP_ENVELOPE_TYPES = [
  "handshake",
  "handshake_ack",
  "query",
  "frames",
  "verify",
  "verified",
  "shutdown",
  "error",
] as const;
export type CgpEnvelopeType = (typeof CGP_ENVELOPE_TYPES)[number];

export const CgpHandshakeSchema = z.object({
  type: z.literal("handshake"),
  protocol_version: z.string(),
});
export const CgpHandshakeAckSchema = z.object({
  type: z.literal("handshake_ack"),
  protocol_version: z.string(),
  provider: CgpProviderInfoSchema,
  capabilities: CgpCapabilitiesSchema,
});
export const CgpQueryEnvelopeSchema = z.object({
  type: z.literal("query"),
  id: CorrelationIdSchema.optional(),
  query: CgpQuerySchema,
});
export const CgpFramesEnvelopeSchema = z.object({
  type: z.literal("frames"),
  id: CorrelationIdSchema.optional(),
  result: CgpQueryResultSchema,
});
export const CgpVerifyEnvelopeSchema = z.object({
  type: z.literal("verify"),
  id: CorrelationIdSchema.optional(),
  request: CgpVerifyRequestSchema,
});
export const CgpVerifiedEnvelopeSchema = z.object({
  type: z.literal("verified"),
  id: CorrelationIdSchema.optional(),
  response: CgpVerifyResponseSchema,
});
export const CgpShutdownSchema = z.object({ type: z.literal("shutdown") });
/** §10: `code` is open (read it through {@link cgpErrorCode}: unknown or absent is `internal`). */
export const CgpErrorEnvelopeSchema = z.object({
  type: z.literal("error"),
  id: CorrelationIdSchema.optional(),
  code: z.string().nullish(),
  message: z.string(),
});

/** One message, interop level: unknown members are dropped (U1). */
export const CgpEnvelopeSchema = z.discriminatedUnion("type", [
  CgpHandshakeSchema,
  CgpHandshakeAckSchema,
  CgpQueryEnvelopeSchema,
  CgpFramesEnvelopeSchema,
  CgpVerifyEnvelopeSchema,
  CgpVerifiedEnvelopeSchema,
  CgpShutdownSchema,
  CgpErrorEnvelopeSchema,
]);
export type CgpEnvelope = z.infer<typeof CgpEnvelopeSchema>;
/** An envelope as a producer may write it: defaulted fields may be left out. */
export type CgpEnvelopeInit = z.input<typeof CgpEnvelopeSchema>;
export type CgpHandshake = z.infer<typeof CgpHandshakeSchema>;
export type CgpHandshakeAck = z.infer<typeof CgpHandshakeAckSchema>;
export type CgpQueryEnvelope = z.infer<typeof CgpQueryEnvelopeSchema>;
export type CgpFramesEnvelope = z.infer<typeof CgpFramesEnvelopeSchema>;
export type CgpVerifyEnvelope = z.infer<typeof CgpVerifyEnvelopeSchema>;
export type CgpVerifiedEnvelope = z.infer<typeof CgpVerifiedEnvelopeSchema>;
export type CgpShutdownEnvelope = z.infer<typeof CgpShutdownSchema>;
export type CgpErrorEnvelope = z.infer<typeof CgpErrorEnvelopeSchema>;

// ---- authoring level ---------------------------------------------------------

const VersionSchema = z.string().regex(CGP_VERSION_PATTERN).meta({
  id: "versionString",
  description:
    "contextgraph/MAJOR.MINOR with an optional -draft suffix. Two versions interoperate iff they share a major family (the substring up to the first dot).",
});
const StrictIdSchema = CorrelationIdSchema.meta({
  description: "Correlation id; a provider declaring correlation echoes it on the reply (H4).",
});

/**
 * One message, authoring level: unknown members are errors, every format
 * grammar is checked. A lint for what we author and for fixtures — never
 * the interop contract (U1 governs the wire).
 */
export const CgpStrictEnvelopeSchema = z
  .discriminatedUnion("type", [
    z
      .strictObject({ type: z.literal("handshake"), protocol_version: VersionSchema })
      .meta({ id: "Handshake", description: "host -> provider: the version the host speaks." }),
    z
      .strictObject({
        type: z.literal("handshake_ack"),
        protocol_version: VersionSchema,
        provider: CgpStrictProviderInfoSchema,
        capabilities: CgpStrictCapabilitiesSchema,
      })
      .meta({
        id: "HandshakeAck",
        description: "provider -> host: version, identity, capabilities.",
      }),
    z
      .strictObject({
        type: z.literal("query"),
        id: StrictIdSchema.optional(),
        query: CgpStrictQuerySchema,
      })
      .meta({ id: "Query", description: "host -> provider: a request with a hard token budget." }),
    z
      .strictObject({
        type: z.literal("frames"),
        id: StrictIdSchema.optional(),
        result: CgpStrictQueryResultSchema,
      })
      .meta({ id: "Frames", description: "provider -> host: frames within max_tokens." }),
    z
      .strictObject({
        type: z.literal("verify"),
        id: StrictIdSchema.optional(),
        request: CgpStrictVerifyRequestSchema,
      })
      .meta({
        id: "Verify",
        description: "host -> provider: frame identities to revalidate, never bodies.",
      }),
    z
      .strictObject({
        type: z.literal("verified"),
        id: StrictIdSchema.optional(),
        response: CgpStrictVerifyResponseSchema,
      })
      .meta({
        id: "Verified",
        description: "provider -> host: one verdict per identity answered.",
      }),
    z
      .strictObject({ type: z.literal("shutdown") })
      .meta({ id: "Shutdown", description: "host -> provider: tear down cleanly." }),
    z
      .strictObject({
        type: z.literal("error"),
        id: StrictIdSchema.optional(),
        code: z.string().optional().meta({ description: "Open vocabulary (X1, X2)." }),
        message: NonEmptyStringSchema,
      })
      .meta({ id: "Error", description: "provider -> host: a problem reported without crashing." }),
  ])
  .meta({
    title: "Context Graph Protocol envelope",
    description:
      "A single contextgraph/1.0-draft message: one object per NDJSON line over stdio, one body per HTTP request or response. Authoring-strict profile (unknown members are errors); a receiver on the wire ignores unknown members instead (SPEC U1).",
  });
