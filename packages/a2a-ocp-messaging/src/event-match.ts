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
import { isJsonObject } from "./json.js";

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
  const dataRecord = isJsonObject(data) ? data : undefined;
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
