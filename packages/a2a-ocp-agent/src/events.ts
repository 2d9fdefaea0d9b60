import type { EventPublishPayload } from "@ocp/a2a-ocp-messaging";
import { matchesEventType as hubMatchesEventType } from "@ocp/a2a-ocp-messaging";
import { matchesFilters } from "@ocp/a2a-ocp-messaging/internal";

/**
 * Event matching (§5.5), agent side. The hub routes `ocp.event.publish` to
 * agents with a matching subscription; the agent matches again against each
 * of its own subscriptions so that every handler gets only what it asked
 * for. The rules are the hub's own functions, so the two never disagree:
 * dot-separated patterns, `*` one segment, a final `**` one or more, `*` or
 * `**` alone everything; filter keys looked up in `eventData` first, then in
 * the event (`severity`, `source`), arrays meaning "any of".
 */
export const matchesEventType: (pattern: string, eventType: string) => boolean =
  hubMatchesEventType;

/** Whether the event passes every filter. */
export function matchesEventFilters(
  event: EventPublishPayload,
  filters: Record<string, unknown> | undefined,
): boolean {
  return matchesFilters(filters, event);
}

/** Whether an event matches a subscription (types and filters). */
export function matchesEventSubscription(
  event: EventPublishPayload,
  subscription: { eventTypes: readonly string[]; filters?: Record<string, unknown> },
): boolean {
  return (
    subscription.eventTypes.some((p) => matchesEventType(p, event.eventType)) &&
    matchesEventFilters(event, subscription.filters)
  );
}

/** The `[id, subscription]` pairs of `subscriptions` an event goes to: every match, or only `only`. */
export function* matchingSubscriptions<
  S extends { eventTypes: readonly string[]; filters?: Record<string, unknown> },
>(
  subscriptions: ReadonlyMap<string, S>,
  event: EventPublishPayload,
  only?: string,
): Generator<[string, S]> {
  for (const [id, subscription] of subscriptions) {
    if (only !== undefined && id !== only) continue;
    if (matchesEventSubscription(event, subscription)) yield [id, subscription];
  }
}
