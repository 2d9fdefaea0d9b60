import { z } from "zod";
import { CountSchema, IdSchema, NonNegativeSchema, TimestampSchema } from "./common.js";

/** §5.6.1 */
export const SyncRequestPayloadSchema = z
  .looseObject({
    syncId: IdSchema,
    scope: z.array(z.string().min(1)),
    lastSyncedAt: TimestampSchema.optional(),
    priority: z.enum(["low", "normal", "high"]).optional(),
  })
  .meta({ id: "SyncRequestPayload", description: "§5.6.1 ocp.sync.request" });
export type SyncRequestPayload = z.infer<typeof SyncRequestPayloadSchema>;

/** §5.6.2 */
export const SyncOfferPayloadSchema = z
  .looseObject({
    syncId: IdSchema,
    /** Bytes. */
    dataSize: CountSchema,
    dataTypes: z.array(z.string().min(1)),
    /** Seconds. */
    estimatedTime: NonNegativeSchema,
  })
  .meta({ id: "SyncOfferPayload", description: "§5.6.2 ocp.sync.offer" });
export type SyncOfferPayload = z.infer<typeof SyncOfferPayloadSchema>;

/** §5.6.3 */
export const SyncAcceptPayloadSchema = z
  .looseObject({ syncId: IdSchema, accepted: z.boolean() })
  .meta({ id: "SyncAcceptPayload", description: "§5.6.3 ocp.sync.accept" });
export type SyncAcceptPayload = z.infer<typeof SyncAcceptPayloadSchema>;

/** §5.6.4 */
export const SyncCompletePayloadSchema = z
  .looseObject({
    syncId: IdSchema,
    bytesTransferred: CountSchema,
    itemsSynced: CountSchema,
    conflicts: CountSchema,
    /** Milliseconds. */
    duration: NonNegativeSchema,
  })
  .meta({ id: "SyncCompletePayload", description: "§5.6.4 ocp.sync.complete" });
export type SyncCompletePayload = z.infer<typeof SyncCompletePayloadSchema>;

/** §5.6.5 */
export const SyncConflictPayloadSchema = z
  .looseObject({
    syncId: IdSchema,
    conflicts: z.array(
      z.looseObject({
        type: z.string().min(1),
        itemId: IdSchema,
        localVersion: z.unknown(),
        remoteVersion: z.unknown(),
      }),
    ),
  })
  .meta({ id: "SyncConflictPayload", description: "§5.6.5 ocp.sync.conflict" });
export type SyncConflictPayload = z.infer<typeof SyncConflictPayloadSchema>;
