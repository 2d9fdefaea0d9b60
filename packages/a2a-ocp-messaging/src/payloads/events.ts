import { z } from "zod";
import { AgentUriSchema, IdSchema, MetadataSchema, TimestampSchema } from "./common.js";

/** §5.5.1 */
export const EventPublishPayloadSchema = z
  .looseObject({
    eventId: IdSchema,
    eventType: z.string().min(1),
    eventData: z.unknown(),
    timestamp: TimestampSchema,
    source: AgentUriSchema,
    severity: z.enum(["info", "warning", "error", "critical"]).optional(),
  })
  .meta({ id: "EventPublishPayload", description: "§5.5.1 ocp.event.publish" });
export type EventPublishPayload = z.infer<typeof EventPublishPayloadSchema>;

/** §5.5.2 */
export const EventSubscribePayloadSchema = z
  .looseObject({
    subscriptionId: IdSchema,
    eventTypes: z.array(z.string().min(1)).min(1),
    filters: MetadataSchema.optional(),
  })
  .meta({ id: "EventSubscribePayload", description: "§5.5.2 ocp.event.subscribe" });
export type EventSubscribePayload = z.infer<typeof EventSubscribePayloadSchema>;

/** §5.5.3 */
export const EventUnsubscribePayloadSchema = z
  .looseObject({ subscriptionId: IdSchema })
  .meta({ id: "EventUnsubscribePayload", description: "§5.5.3 ocp.event.unsubscribe" });
export type EventUnsubscribePayload = z.infer<typeof EventUnsubscribePayloadSchema>;

/** §5.5.4 */
export const EventNotificationPayloadSchema = z
  .looseObject({ subscriptionId: IdSchema, event: EventPublishPayloadSchema })
  .meta({ id: "EventNotificationPayload", description: "§5.5.4 ocp.event.notification" });
export type EventNotificationPayload = z.infer<typeof EventNotificationPayloadSchema>;
