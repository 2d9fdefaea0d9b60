/**
 * The hub's side of a {@link ClusterRouting} bus (NATS): which messages the
 * hub hands to the bus whole instead of resolving recipients itself.
 *
 * - A transient broadcast (awareness, collective queries, events, custom):
 *   published once; subjects route it (events by type, to subscribers only).
 * - An `ocp.event.subscribe` / `ocp.event.unsubscribe`: once the message is
 *   accepted (published, or committed), the hub changes the agent's
 *   subscription on the bus (subscription-messages.ts) before it
 *   acknowledges a broadcast one, so an event published after the ack
 *   reaches it, whichever hub the publisher uses.
 *
 * Durable messages (knowledge, sync, consensus, direct) still go through the
 * router and the store: each recipient gets its own sequence number in its
 * own JetStream inbox, and §8.5 visibility is decided per recipient. So does
 * a transient broadcast that carries a knowledge node not every agent of the
 * workspace may see (`team`, `private`, an unknown level): the bus would hand
 * it to every hub's agents whole, so the hub resolves its recipients itself
 * (cluster-wide, see `route`) and delivers to each over its live subject.
 */

import type { NodeAccess, VisibilityPolicy, WireMessage } from "@ocp/a2a-ocp-messaging";
import { type AgentProfile, BROADCAST } from "@ocp/a2a-ocp-messaging";
import { accessControlledNodes, profilePublicKey } from "@ocp/a2a-ocp-messaging/internal";
import type { ClusterRouting } from "./bus.js";
import { isDurable } from "./router.js";
import type { HubStore } from "./store.js";

/**
 * Hands `wire` to the cluster bus where it routes by subject. Returns the
 * publication to acknowledge on when the bus took the message whole (a
 * transient broadcast); `undefined` when the hub routes it as usual (no
 * cluster bus, or a durable message).
 */
export function clusterStep(
  cluster: ClusterRouting | undefined,
  wire: WireMessage,
  payload: unknown,
  raw: string,
  policy: VisibilityPolicy,
  onError: (error: unknown) => void,
): Promise<void> | undefined {
  if (cluster === undefined) return undefined;
  if (wire.to !== BROADCAST || isDurable(wire) || restricted(wire, payload, policy)) {
    return undefined;
  }
  const published = cluster.broadcast({
    id: wire.id,
    from: wire.from,
    type: wire.type,
    payload,
    bytes: Buffer.from(raw, "utf8"),
  });
  return published.then(
    () => undefined,
    (error: unknown) => {
      onError(error);
      throw error;
    },
  );
}

/** Whether `payload` carries a node that not every agent of the workspace may see (or is sealed). */
export function restricted(
  wire: { type: string; from: string; encrypted?: unknown },
  payload: unknown,
  policy: VisibilityPolicy,
): boolean {
  // A sealed message goes to its declared recipients only (sealed.ts), never to every hub's agents.
  if (payload === undefined) return wire.encrypted === true;
  return accessControlledNodes(wire.type, wire.from, payload).some((node: NodeAccess) => {
    const level = node.visibility ?? policy.defaultVisibility;
    return level !== "public" && level !== "workspace";
  });
}

/** The hub's table of registered agents. */
export type KnownAgents = Map<string, { profile: AgentProfile; key: Uint8Array }>;

/**
 * Records a profile saved by another hub; the first key seen stays pinned.
 * Its `team` is never read: every hub takes teams from its own allow-list.
 */
export function learnProfile(known: KnownAgents, profile: AgentProfile): void {
  const current = known.get(profile.id);
  if (current !== undefined && current.profile.publicKey !== profile.publicKey) return;
  if (current === undefined || current.profile.issuedAt < profile.issuedAt) {
    known.set(profile.id, { profile, key: profilePublicKey(profile) });
  }
}

/** A known profile, else (a shared store) the one another hub saved, learned on the way. */
export function profileOf(
  known: KnownAgents,
  store: HubStore,
  agentId: string,
): AgentProfile | undefined | Promise<AgentProfile | undefined> {
  const current = known.get(agentId)?.profile;
  if (current !== undefined || store.agent === undefined) return current;
  return store.agent(agentId).then((profile) => {
    if (profile !== undefined) learnProfile(known, profile);
    return profile;
  });
}
