import { z } from "zod";
import { CapabilitiesSchema, ProviderInfoSchema, StrictProviderInfoSchema } from "./capability.js";
import { NonEmptyStringSchema, VersionStringSchema } from "./primitives.js";
import {
  ContextQueryResultSchema,
  ContextQuerySchema,
  StrictContextQueryResultSchema,
  StrictContextQuerySchema,
} from "./query.js";

/**
 * Extension: a correlation id on `query`, `frames` and `error`, sent only to
 * providers that declare `capabilities.correlation`. Bounded so a peer cannot
 * make the host keep megabytes of ids.
 */
export const MAX_CORRELATION_ID_LENGTH = 128;
/** A correlation id, in both families (`contextgraph/1` §3.2 too): opaque, 1 to {@link MAX_CORRELATION_ID_LENGTH} characters. */
export const CorrelationIdSchema = z.string().min(1).max(MAX_CORRELATION_ID_LENGTH);

/**
 * Extension: the host's `extensions` on `handshake` name what it understands
 * (see `extensions.ts`); a plain host sends none and gets none.
 *
 * Builds the six envelope variants over a given level of payload schemas, so
 * the decoding level and the conformance level share one definition.
 */
function envelopeVariants<
  Info extends z.ZodType,
  Query extends z.ZodType,
  Result extends z.ZodType,
  Text extends z.ZodType<string>,
>(info: Info, query: Query, result: Result, text: Text, strict: boolean) {
  const version = strict ? VersionStringSchema : z.string();
  const tag = <T extends z.ZodObject>(schema: T, id: string, description: string) =>
    strict ? schema.meta({ id, description }) : schema;
  return [
    tag(
      z.object({
        type: z.literal("handshake"),
        protocol_version: version,
        extensions: z.array(z.string().max(MAX_CORRELATION_ID_LENGTH)).max(16).optional(),
      }),
      "Handshake",
      "host -> provider: the protocol version the host speaks.",
    ),
    tag(
      z.object({
        type: z.literal("handshake_ack"),
        protocol_version: version,
        provider: info,
        capabilities: CapabilitiesSchema,
      }),
      "HandshakeAck",
      "provider -> host: its version, identity and capabilities.",
    ),
    tag(
      z.object({ type: z.literal("query"), id: CorrelationIdSchema.optional(), query }),
      "Query",
      "host -> provider: a retrieval request carrying a hard token budget.",
    ),
    tag(
      z.object({ type: z.literal("frames"), id: CorrelationIdSchema.optional(), result }),
      "Frames",
      "provider -> host: frames whose token_cost sums to at most max_tokens.",
    ),
    tag(
      z.object({ type: z.literal("shutdown") }),
      "Shutdown",
      "host -> provider: tear down cleanly.",
    ),
    tag(
      z.object({
        type: z.literal("error"),
        id: CorrelationIdSchema.optional(),
        code: z.string().optional(),
        message: text,
      }),
      "Error",
      "provider -> host: a problem reported without crashing.",
    ),
  ] as const;
}

const [Handshake, HandshakeAck, Query, Frames, Shutdown, ErrorEnvelope] = envelopeVariants(
  ProviderInfoSchema,
  ContextQuerySchema,
  ContextQueryResultSchema,
  z.string(),
  false,
);

export const HandshakeSchema = Handshake;
export const HandshakeAckSchema = HandshakeAck;
export const QueryEnvelopeSchema = Query;
export const FramesEnvelopeSchema = Frames;
export const ShutdownSchema = Shutdown;
export const ErrorEnvelopeSchema = ErrorEnvelope;

/**
 * One message on the wire, tagged by `type`: decoding level. Unknown fields
 * are tolerated (and dropped); values that fail F1-F3 still decode.
 */
export const EnvelopeSchema = z.discriminatedUnion("type", [
  Handshake,
  HandshakeAck,
  Query,
  Frames,
  Shutdown,
  ErrorEnvelope,
]);
export type Envelope = z.infer<typeof EnvelopeSchema>;
/** An envelope as a producer may write it: defaulted fields may be left out. */
export type EnvelopeInit = z.input<typeof EnvelopeSchema>;
export type EnvelopeType = Envelope["type"];

export type Handshake = z.infer<typeof HandshakeSchema>;
export type HandshakeAck = z.infer<typeof HandshakeAckSchema>;
export type QueryEnvelope = z.infer<typeof QueryEnvelopeSchema>;
export type FramesEnvelope = z.infer<typeof FramesEnvelopeSchema>;
export type ShutdownEnvelope = z.infer<typeof ShutdownSchema>;
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

/**
 * The conformance level of the envelope: everything the reference JSON Schema
 * encodes (version grammar, score range, non-empty labels, u32 ranges). The
 * generated `schema/ocp-envelope.schema.json` is this schema.
 */
export const StrictEnvelopeSchema = z
  .discriminatedUnion(
    "type",
    envelopeVariants(
      StrictProviderInfoSchema,
      StrictContextQuerySchema,
      StrictContextQueryResultSchema,
      NonEmptyStringSchema,
      true,
    ),
  )
  .meta({
    title: "OCP envelope",
    description:
      "A single Open Context Protocol message: one object per NDJSON line over stdio, one body per HTTP request or response. The `type` field selects the variant.",
  });

/** The `type` tags of every envelope variant, in wire order. */
export const ENVELOPE_TYPES = [
  "handshake",
  "handshake_ack",
  "query",
  "frames",
  "shutdown",
  "error",
] as const satisfies readonly EnvelopeType[];
