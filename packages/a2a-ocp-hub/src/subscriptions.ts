import { type EventSubscription, matchesEventType } from "@ocp/a2a-ocp-messaging";
import { matchesFilters } from "@ocp/a2a-ocp-messaging/internal";

/** The subscriptions of every agent, in memory (the store keeps them across restarts). */
export class SubscriptionTable {
  readonly #byAgent = new Map<string, Map<string, EventSubscription>>();
  /** Agent → slots held by subscribes accepted and not yet applied (a durable one waits for its commit). */
  readonly #reserved = new Map<string, number>();

  /**
   * Holds a slot for a subscription about to be added; false when the agent
   * holds `max` others, counting the slots already held. Every slot is given
   * back with {@link release} (also when the subscription is then added).
   */
  reserve(agentId: string, subscriptionId: string, max: number): boolean {
    const own = this.#byAgent.get(agentId);
    const reserved = this.#reserved.get(agentId) ?? 0;
    if (own?.has(subscriptionId) !== true && (own?.size ?? 0) + reserved >= max) return false;
    this.#reserved.set(agentId, reserved + 1);
    return true;
  }

  /** Gives back one slot of {@link reserve}. */
  release(agentId: string): void {
    const reserved = (this.#reserved.get(agentId) ?? 0) - 1;
    if (reserved > 0) this.#reserved.set(agentId, reserved);
    else this.#reserved.delete(agentId);
  }

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
