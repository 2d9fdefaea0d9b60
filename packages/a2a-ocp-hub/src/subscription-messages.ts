/**
 * The hub reads `ocp.event.subscribe` and `ocp.event.unsubscribe` as they
 * pass (addressed to an agent, several, or broadcast; one addressed to the
 * hub itself is refused `recipient_unknown`) and keeps the sender's
 * subscriptions, in memory, in the store and (clustered) on the bus, so
 * event publications reach subscribers by type and filters, across
 * reconnects and restarts.
 *
 * A change takes effect only once the message is accepted: {@link
 * planSubscription} reads it and changes nothing; the hub runs every other
 * check, holds a slot for a subscribe ({@link SubscriptionTable.reserve}),
 * and applies the change ({@link applySubscription}) when the message is
 * routed — for a durable one, after its commit. A refused message leaves no
 * subscription behind and removes none.
 */
import type { EventSubscription } from "@ocp/a2a-ocp-messaging";
import {
  EventSubscribePayloadSchema,
  EventUnsubscribePayloadSchema,
} from "@ocp/a2a-ocp-messaging/schemas";
import type { ClusterRouting } from "./bus.js";
import { HUB_MAX_EVENT_TYPES_PER_SUBSCRIPTION, HUB_MAX_SUBSCRIPTIONS_PER_AGENT } from "./limits.js";
import type { HubStore } from "./store.js";
import type { SubscriptionTable } from "./subscriptions.js";

/** What a subscribe or unsubscribe would change, once accepted. */
export type SubscriptionChange =
  | { kind: "subscribe"; subscription: EventSubscription }
  | { kind: "unsubscribe"; agentId: string; subscriptionId: string };

export type Planned =
  | { ok: true; change: SubscriptionChange | undefined }
  | { ok: false; code: "invalid_message"; message: string };

/** Reads a subscribe/unsubscribe of `agentId` (`change` undefined for other types); changes nothing. */
export function planSubscription(type: string, agentId: string, payload: unknown): Planned {
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
    return { ok: true, change: { kind: "subscribe", subscription } };
  }
  if (type === "ocp.event.unsubscribe" && payload !== undefined) {
    const parsed = EventUnsubscribePayloadSchema.safeParse(payload);
    if (!parsed.success) {
      return { ok: false, code: "invalid_message", message: "bad unsubscription" };
    }
    const { subscriptionId } = parsed.data;
    return { ok: true, change: { kind: "unsubscribe", agentId, subscriptionId } };
  }
  return { ok: true, change: undefined };
}

/**
 * Holds a slot for a subscribe until it is applied or released; the reason
 * to refuse it when the agent holds (or is taking) its most subscriptions.
 */
export function reserveSubscription(
  change: SubscriptionChange,
  table: SubscriptionTable,
): string | undefined {
  if (change.kind !== "subscribe") return undefined;
  const { agentId, subscriptionId } = change.subscription;
  if (table.reserve(agentId, subscriptionId, HUB_MAX_SUBSCRIPTIONS_PER_AGENT)) return undefined;
  return `an agent holds at most ${HUB_MAX_SUBSCRIPTIONS_PER_AGENT} subscriptions`;
}

/** Gives back the slot of a subscribe that was refused after {@link reserveSubscription}. */
export function releaseSubscription(change: SubscriptionChange, table: SubscriptionTable): void {
  if (change.kind === "subscribe") table.release(change.subscription.agentId);
}

export interface ApplyContext {
  table: SubscriptionTable;
  store: HubStore;
  cluster: ClusterRouting | undefined;
  onError: (error: unknown) => void;
}

/**
 * Applies an accepted change (taking its reserved slot): in memory now, in
 * the store in the background, and on the cluster bus; resolves when the bus
 * routes by it (at once without a cluster).
 */
export function applySubscription(
  change: SubscriptionChange,
  context: ApplyContext,
): Promise<void> {
  if (change.kind === "subscribe") {
    const { subscription } = change;
    context.table.release(subscription.agentId);
    context.table.add(subscription, Number.MAX_SAFE_INTEGER); // the slot was held by reserve
    context.store.saveSubscription(subscription).catch(context.onError);
    return context.cluster?.subscribed(subscription) ?? Promise.resolve();
  }
  context.table.remove(change.agentId, change.subscriptionId);
  context.store.removeSubscription(change.agentId, change.subscriptionId).catch(context.onError);
  return context.cluster?.unsubscribed(change.agentId, change.subscriptionId) ?? Promise.resolve();
}

/** A planned change between its checks and its outcome: apply it once accepted, or release it. */
export interface PendingSubscription {
  /** Applies the change (see {@link applySubscription}); a no-op for other messages. */
  apply(): Promise<void>;
  /** Gives back what the change held (the message was refused after all). */
  release(): void;
}

/**
 * Holds a slot for `change` (when it is a subscribe): the pending change,
 * or the reason to refuse the message (`rate_limited`).
 */
export function holdSubscription(
  change: SubscriptionChange | undefined,
  context: ApplyContext,
): PendingSubscription | { refused: string } {
  if (change === undefined) return { apply: () => Promise.resolve(), release: () => {} };
  const full = reserveSubscription(change, context.table);
  if (full !== undefined) return { refused: full };
  return {
    apply: () => applySubscription(change, context),
    release: () => releaseSubscription(change, context.table),
  };
}
