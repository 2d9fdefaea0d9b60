import { type EventSubscription, matchesEventType, matchesFilters } from "@ocp/a2a-ocp-messaging";

/** The subscriptions of every agent, in memory (the store keeps them across restarts). */
export class SubscriptionTable {
  readonly #byAgent = new Map<string, Map<string, EventSubscription>>();

  /** Adds or replaces a subscription; false when the agent already holds `max` others. */
  add(subscription: EventSubscription, max: number): boolean {
    let own = this.#byAgent.get(subscription.agentId);
    if (own === undefined) {
      own = new Map();
      this.#byAgent.set(subscription.agentId, own);
    }
    if (!own.has(subscription.subscriptionId) && own.size >= max) return false;
    own.set(subscription.subscriptionId, subscription);
    return true;
  }

  remove(agentId: string, subscriptionId: string): boolean {
    const own = this.#byAgent.get(agentId);
    const removed = own?.delete(subscriptionId) ?? false;
    if (own !== undefined && own.size === 0) this.#byAgent.delete(agentId);
    return removed;
  }

  /** The agents with a subscription matching `event`, each with the matching subscription ids. */
  match(event: Readonly<Record<string, unknown>>): Map<string, string[]> {
    const eventType = typeof event["eventType"] === "string" ? event["eventType"] : "";
    const out = new Map<string, string[]>();
    for (const [agentId, own] of this.#byAgent) {
      for (const subscription of own.values()) {
        if (
          subscription.eventTypes.some((pattern) => matchesEventType(pattern, eventType)) &&
          matchesFilters(subscription.filters, event)
        ) {
          const ids = out.get(agentId);
          if (ids === undefined) out.set(agentId, [subscription.subscriptionId]);
          else ids.push(subscription.subscriptionId);
        }
      }
    }
    return out;
  }

  /** Number of subscriptions held. */
  get size(): number {
    let n = 0;
    for (const own of this.#byAgent.values()) n += own.size;
    return n;
  }
}
