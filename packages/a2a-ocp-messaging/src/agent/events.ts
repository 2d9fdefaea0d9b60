import type { EventPublishPayload } from "../payloads/events.js";

/**
 * Event matching (§5.5), agent side. The hub routes notifications; the agent
 * matches them again against its own subscriptions so that each handler gets
 * only what it asked for.
 *
 * The semantics are the hub's (`src/hub/subscriptions.ts`), so the two
 * never disagree. Patterns are dot-separated: `*` matches exactly one
 * segment, a final `**` matches one or more segments, `*` or `**` alone
 * matches every type. `code.*` matches `code.deployed`, not
 * `code.deployed.eu`; `code.**` matches both.
 *
 * Filters: every key must match; a key is looked up in `eventData` first,
 * then in the event itself (`severity`, `source`); an array value matches
 * any of its elements, other values match JSON primitives by equality.
 */
export function matchesEventType(pattern: string, type: string): boolean {
  if (pattern === "*" || pattern === "**") return true;
  const p = pattern.split(".");
  const t = type.split(".");
  for (let i = 0; i < p.length; i++) {
    const segment = p[i];
    if (segment === "**" && i === p.length - 1) return t.length > i;
    if (i >= t.length) return false;
    if (segment !== "*" && segment !== t[i]) return false;
  }
  return p.length === t.length;
}

function fieldOf(event: EventPublishPayload, key: string): unknown {
  const data = event.eventData;
  if (typeof data === "object" && data !== null && !Array.isArray(data) && Object.hasOwn(data, key)) {
    return (data as Record<string, unknown>)[key];
  }
  return (event as Record<string, unknown>)[key];
}

function primitiveEqual(expected: unknown, actual: unknown): boolean {
  return (expected === null || typeof expected !== "object") && Object.is(expected, actual);
}

/** Whether the event passes every filter. */
export function matchesEventFilters(event: EventPublishPayload, filters: Record<string, unknown> | undefined): boolean {
  if (filters === undefined) return true;
  for (const [path, expected] of Object.entries(filters)) {
    const actual = fieldOf(event, path);
    if (Array.isArray(expected)) {
      if (!expected.some((e) => primitiveEqual(e, actual))) return false;
    } else if (!primitiveEqual(expected, actual)) {
      return false;
    }
  }
  return true;
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
