/**
 * The hub reads `ocp.event.subscribe` and `ocp.event.unsubscribe` as they
 * pass (whoever they are addressed to) and keeps the sender's subscriptions,
 * in memory and in the store, so event publications reach subscribers by
 * type and filters, across reconnects and restarts.
 */
import {
  EventSubscribePayloadSchema,
  EventUnsubscribePayloadSchema,
} from "@ocp/a2a-ocp-messaging/schemas";
import { HUB_MAX_EVENT_TYPES_PER_SUBSCRIPTION, HUB_MAX_SUBSCRIPTIONS_PER_AGENT } from "./limits.js";
import type { HubStore } from "./store.js";
import type { SubscriptionTable } from "./subscriptions.js";

export type Observed =
  | { ok: true }
  | { ok: false; code: "invalid_message" | "rate_limited"; message: string };

/** Applies a subscribe/unsubscribe of `agentId` (no-op for other types). */
export function observeSubscription(
  type: string,
  agentId: string,
  payload: unknown,
  context: { table: SubscriptionTable; store: HubStore; onError: (error: unknown) => void },
): Observed {
  if (type === "ocp.event.subscribe" && payload !== undefined) {
    const parsed = EventSubscribePayloadSchema.safeParse(payload);
    if (!parsed.success) return { ok: false, code: "invalid_message", message: "bad subscription" };
    if (parsed.data.eventTypes.length > HUB_MAX_EVENT_TYPES_PER_SUBSCRIPTION) {
      return {
        ok: false,
        code: "invalid_message",
        message: `a subscription names at most ${HUB_MAX_EVENT_TYPES_PER_SUBSCRIPTION} event types`,
      };
    }
    const subscription = {
      agentId,
      subscriptionId: parsed.data.subscriptionId,
      eventTypes: parsed.data.eventTypes,
      ...(parsed.data.filters === undefined ? {} : { filters: parsed.data.filters }),
    };
    if (!context.table.add(subscription, HUB_MAX_SUBSCRIPTIONS_PER_AGENT)) {
      return {
        ok: false,
        code: "rate_limited",
        message: `an agent holds at most ${HUB_MAX_SUBSCRIPTIONS_PER_AGENT} subscriptions`,
      };
    }
    context.store.saveSubscription(subscription).catch(context.onError);
  } else if (type === "ocp.event.unsubscribe" && payload !== undefined) {
    const parsed = EventUnsubscribePayloadSchema.safeParse(payload);
    if (!parsed.success)
      return { ok: false, code: "invalid_message", message: "bad unsubscription" };
    context.table.remove(agentId, parsed.data.subscriptionId);
    context.store.removeSubscription(agentId, parsed.data.subscriptionId).catch(context.onError);
  }
  return { ok: true };
}
