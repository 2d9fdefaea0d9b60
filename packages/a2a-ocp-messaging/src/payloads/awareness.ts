import { z } from "zod";
import { AgentUriSchema, IdSchema, MetadataSchema } from "./common.js";

/** §5.4.1 what an agent is doing. */
export const AWARENESS_STATUSES = ["working", "blocked", "reviewing", "idle", "away"] as const;
/** §5.4.1 whether it can be interrupted. */
export const AVAILABILITIES = ["available", "busy", "away"] as const;

const beaconShape = {
  status: z.enum(AWARENESS_STATUSES),
  currentContext: z
    .looseObject({
      task: z.string().optional(),
      file: z.string().optional(),
      project: z.string().optional(),
      blockedOn: z.string().optional(),
    })
    .optional(),
  availability: z.enum(AVAILABILITIES),
  metadata: MetadataSchema.optional(),
};

/** §5.4.1 */
export const AwarenessBeaconPayloadSchema = z
  .looseObject(beaconShape)
  .meta({ id: "AwarenessBeaconPayload", description: "§5.4.1 ocp.awareness.beacon" });
export type AwarenessBeaconPayload = z.infer<typeof AwarenessBeaconPayloadSchema>;

/** §5.4.2 `changes` is a `Partial<AwarenessBeaconPayload>`. */
export const AwarenessUpdatePayloadSchema = z
  .looseObject({ changes: z.looseObject(beaconShape).partial() })
  .meta({ id: "AwarenessUpdatePayload", description: "§5.4.2 ocp.awareness.update" });
export type AwarenessUpdatePayload = z.infer<typeof AwarenessUpdatePayloadSchema>;

/** §5.4.3 the filters name statuses and availabilities, so they take the closed enums. */
export const AwarenessQueryPayloadSchema = z
  .looseObject({
    queryId: IdSchema,
    filters: z
      .looseObject({
        status: z.array(z.enum(AWARENESS_STATUSES)).optional(),
        availability: z.array(z.enum(AVAILABILITIES)).optional(),
        task: z.string().optional(),
      })
      .optional(),
  })
  .meta({ id: "AwarenessQueryPayload", description: "§5.4.3 ocp.awareness.query" });
export type AwarenessQueryPayload = z.infer<typeof AwarenessQueryPayloadSchema>;

/** §5.4.4 */
export const AwarenessResponsePayloadSchema = z
  .looseObject({
    queryId: IdSchema,
    agents: z.array(
      z.looseObject({ agentId: AgentUriSchema, awareness: AwarenessBeaconPayloadSchema }),
    ),
  })
  .meta({ id: "AwarenessResponsePayload", description: "§5.4.4 ocp.awareness.response" });
export type AwarenessResponsePayload = z.infer<typeof AwarenessResponsePayloadSchema>;
