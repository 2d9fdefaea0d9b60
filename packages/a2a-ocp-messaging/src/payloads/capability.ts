import { z } from "zod";
import { SEMVER_PATTERN } from "../version.js";

/** §7.1 OCPFeature. */
export const OCP_FEATURES = [
  "knowledge_streaming",
  "collective_query",
  "consensus_voting",
  "awareness_beacon",
  "event_publishing",
  "bidirectional_sync",
] as const;
export const OcpFeatureSchema = z.enum(OCP_FEATURES);
export type OcpFeature = z.infer<typeof OcpFeatureSchema>;

const SemverSchema = z.string().regex(SEMVER_PATTERN, "must be a semantic version");

/** §7.2 the client's features. */
export const CapabilityAnnouncePayloadSchema = z
  .looseObject({ features: z.array(OcpFeatureSchema), version: SemverSchema })
  .meta({ id: "CapabilityAnnouncePayload", description: "§7.2 capability.announce" });
export type CapabilityAnnouncePayload = z.infer<typeof CapabilityAnnouncePayloadSchema>;

/** §7.2 the features the server supports of those announced. */
export const CapabilityConfirmPayloadSchema = z
  .looseObject({ supportedFeatures: z.array(OcpFeatureSchema), version: SemverSchema })
  .meta({ id: "CapabilityConfirmPayload", description: "§7.2 capability.confirm" });
export type CapabilityConfirmPayload = z.infer<typeof CapabilityConfirmPayloadSchema>;

/**
 * The message types each §7.1 feature covers, by prefix. A type under none of
 * them (`capability.*`, `ocp.custom.*`) needs no feature.
 */
export const FEATURE_TYPE_PREFIXES: Readonly<Record<OcpFeature, string>> = {
  knowledge_streaming: "ocp.knowledge.",
  collective_query: "ocp.collective.",
  consensus_voting: "ocp.consensus.",
  awareness_beacon: "ocp.awareness.",
  event_publishing: "ocp.event.",
  bidirectional_sync: "ocp.sync.",
};

/** The feature a message type belongs to, or `undefined` when it needs none. */
export function featureOfType(type: string): OcpFeature | undefined {
  for (const feature of OCP_FEATURES) {
    if (type.startsWith(FEATURE_TYPE_PREFIXES[feature])) return feature;
  }
  return undefined;
}
