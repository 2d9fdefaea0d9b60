import { z } from "zod";
import { NonEmptyStringSchema } from "./primitives.js";

/**
 * What a provider does with data. `egress` is the security-critical field: a
 * conforming host gates an egress provider behind recorded, named consent
 * (C1, C2). Missing booleans default to `false`, as in the reference.
 */
export const DataFlowSchema = z
  .object({
    reads: z.boolean().default(false),
    writes: z.boolean().default(false),
    egress: z.boolean().default(false),
  })
  .meta({ id: "DataFlow", description: "Declares what a provider does with data." });
export type DataFlow = z.infer<typeof DataFlowSchema>;

/**
 * Provider identity and declared data flow, surfaced at consent time. The
 * decoder accepts empty strings so a host can name the violation; H2 (name
 * and version non-empty) is enforced by {@link StrictProviderInfoSchema}.
 */
export const ProviderInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  data_flow: DataFlowSchema,
});
export type ProviderInfo = z.infer<typeof ProviderInfoSchema>;

/** H2: the conformance level of {@link ProviderInfoSchema}. */
export const StrictProviderInfoSchema = ProviderInfoSchema.extend({
  name: NonEmptyStringSchema,
  version: NonEmptyStringSchema,
}).meta({ id: "ProviderInfo", description: "Provider identity and declared data flow." });

/** Which frame kinds and filters a provider serves. */
export const QueryCapabilitySchema = z
  .object({
    kinds: z.array(z.string()).default([]),
    filters: z.array(z.string()).default([]),
  })
  .meta({ id: "QueryCapability" });
export type QueryCapability = z.infer<typeof QueryCapabilitySchema>;

/**
 * What a provider can do, negotiated at the handshake. Every field defaults
 * when missing.
 *
 * Extension (not in `ocp/1.0-draft`): `correlation: true` declares that the
 * provider echoes the `id` of a `query` on its `frames` or `error` reply, so a
 * host may pipeline queries. A plain peer never sends it and never sees an id.
 */
export const CapabilitiesSchema = z
  .object({
    query: QueryCapabilitySchema.default({ kinds: [], filters: [] }),
    upsert: z.boolean().default(false),
    graph: z.boolean().default(false),
    embeddings_fingerprint: z.string().nullish(),
    subscribe: z.boolean().default(false),
    correlation: z.boolean().optional(),
  })
  .meta({ id: "Capabilities" });
export type Capabilities = z.infer<typeof CapabilitiesSchema>;
