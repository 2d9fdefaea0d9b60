/**
 * Routing decisions, pure: which agents get a message, and whether it is
 * durable (committed to the store, sequenced per recipient, replayed after a
 * reconnect) or transient (forwarded to connected agents only).
 *
 * Durable: every `ocp.knowledge.*`, `ocp.sync.*` and `ocp.consensus.*`
 * message, and every message addressed to named agents (direct or
 * multicast), so an agent that is offline gets it when it reconnects (until
 * its TTL). Transient: broadcasts of other types (awareness, events,
 * collective queries, capability, custom) — presence and queries are only
 * meaningful live.
 *
 * Recipients: the named agents; for a durable broadcast, every agent the hub
 * knows; for a transient broadcast, every connected agent — except
 * `ocp.event.publish`, which goes only to agents with a matching
 * subscription. Never the sender itself on a broadcast. Then §8.5: a message
 * carrying knowledge nodes goes only to recipients allowed to see every one.
 */
import { BROADCAST, mayReceive, type VisibilityPolicy } from "@ocp/a2a-ocp-messaging";
import { accessControlledNodes, isJsonObject } from "@ocp/a2a-ocp-messaging/internal";
import { sealedRoute } from "./sealed.js";
import type { SubscriptionTable } from "./subscriptions.js";

const DURABLE_PREFIXES = ["ocp.knowledge.", "ocp.sync.", "ocp.consensus."];

/** Whether messages of `type` are durable even when broadcast. */
export function isDurableType(type: string): boolean {
  return DURABLE_PREFIXES.some((prefix) => type.startsWith(prefix));
}

/** Whether a message is durable (see the module comment). */
export function isDurable(message: { type: string; to: unknown }): boolean {
  return message.to !== BROADCAST || isDurableType(message.type);
}

export interface RouteContext {
  /** Every agent the hub knows (registered at least once). */
  known: () => Iterable<string>;
  /** Every agent connected now. */
  attached: () => Iterable<string>;
  subscriptions: Pick<SubscriptionTable, "match">;
  policy: VisibilityPolicy;
  /**
   * Set on a hub of a cluster: a transient broadcast routed here (one whose
   * nodes not everyone may see) goes to every agent the hub knows and every
   * agent a node names (`createdBy`, `sharedWith`), wherever attached, not
   * only to this hub's connections.
   */
  clusterWide?: boolean;
}

export interface Route {
  durable: boolean;
  recipients: string[];
  /** Recipients left out by §8.5 access control. */
  excluded: string[];
}

/**
 * Decides where a message goes. `payload` is its readable payload, or
 * `undefined` when encrypted: a sealed message goes only to the recipients
 * its signed `ocpSealed` declares, which the hub checked against §8.5 first
 * (sealed.ts).
 */
export function route(
  message: { from: string; to: string | readonly string[]; type: string },
  payload: unknown,
  context: RouteContext,
): Route {
  const durable = isDurable(message);
  if (payload === undefined) return sealedRoute(message, durable);
  let candidates: string[];
  if (message.to === BROADCAST) {
    if (message.type === "ocp.event.publish" && isJsonObject(payload)) {
      candidates = [...context.subscriptions.match(payload).keys()];
    } else if (durable) {
      candidates = [...context.known()];
    } else if (context.clusterWide === true && payload !== undefined) {
      const named = new Set<string>([...context.known(), ...context.attached()]);
      for (const node of accessControlledNodes(message.type, message.from, payload)) {
        named.add(node.createdBy);
        for (const agent of node.sharedWith ?? []) named.add(agent);
      }
      candidates = [...named];
    } else {
      candidates = [...context.attached()];
    }
    candidates = candidates.filter((agent) => agent !== message.from);
  } else {
    candidates = [...new Set(typeof message.to === "string" ? [message.to] : message.to)];
  }
  const nodes = accessControlledNodes(message.type, message.from, payload);
  if (nodes.length === 0) return { durable, recipients: candidates, excluded: [] };
  const recipients: string[] = [];
  const excluded: string[] = [];
  for (const agent of candidates) {
    (mayReceive(nodes, agent, context.policy) ? recipients : excluded).push(agent);
  }
  return { durable, recipients, excluded };
}
