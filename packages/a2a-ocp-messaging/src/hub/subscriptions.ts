/**
 * Event subscriptions at the hub (§5.5): which agents receive an
 * `ocp.event.publish` sent to `broadcast`. An agent subscribes with
 * `ocp.event.subscribe` (its `eventTypes` and `filters`) and unsubscribes with
 * `ocp.event.unsubscribe`; the hub reads both as they pass.
 *
 * Event type patterns are dot-separated: a segment `*` matches exactly one
 * segment (`code.*` matches `code.deployed`, not `code.a.b`), a final `**`
 * matches one or more segments (`code.**` matches both), and `*` or `**`
 * alone matches every type.
 *
 * Filters: every key must match. A key is looked up in the event's
 * `eventData` first, then in the event itself (`severity`, `source`); a
 * filter value that is an array matches any of its elements; other values
 * match by equality (JSON primitives) — an object value never matches.
 */

export interface EventSubscription {
  agentId: string;
  subscriptionId: string;
  eventTypes: readonly string[];
  filters?: Readonly<Record<string, unknown>> | undefined;
}

/** Whether `pattern` matches `eventType`. */
export function matchesEventType(pattern: string, eventType: string): boolean {
  if (pattern === "*" || pattern === "**") return true;
  const want = pattern.split(".");
  const have = eventType.split(".");
  for (let i = 0; i < want.length; i++) {
    const segment = want[i];
    if (segment === "**" && i === want.length - 1) return have.length > i;
    if (i >= have.length) return false;
    if (segment !== "*" && segment !== have[i]) return false;
  }
  return want.length === have.length;
}

function primitiveEqual(expected: unknown, actual: unknown): boolean {
  if (expected === null || typeof expected !== "object") return Object.is(expected, actual);
  return false;
}

/** Whether an event (an `ocp.event.publish` payload) passes a subscription's filters. */
export function matchesFilters(
  filters: Readonly<Record<string, unknown>> | undefined,
  event: Readonly<Record<string, unknown>>,
): boolean {
  if (filters === undefined) return true;
  const data = event["eventData"];
  const dataRecord =
    typeof data === "object" && data !== null && !Array.isArray(data)
      ? (data as Record<string, unknown>)
      : undefined;
  for (const [key, expected] of Object.entries(filters)) {
    const actual =
      dataRecord !== undefined && Object.hasOwn(dataRecord, key) ? dataRecord[key] : event[key];
    const ok = Array.isArray(expected)
      ? expected.some((value) => primitiveEqual(value, actual))
      : primitiveEqual(expected, actual);
    if (!ok) return false;
  }
  return true;
}

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
