/**
 * The hub's side of a {@link ClusterRouting} bus (NATS): which messages the
 * hub hands to the bus whole instead of resolving recipients itself.
 *
 * - A transient broadcast (awareness, collective queries, events, custom):
 *   published once; subjects route it (events by type, to subscribers only).
 * - An `ocp.event.subscribe` / `ocp.event.unsubscribe`: the agent's
 *   subscription starts (stops) routing before the hub acknowledges it, so an
 *   event published after the ack reaches it, whichever hub the publisher
 *   uses.
 *
 * Durable messages (knowledge, sync, consensus, direct) still go through the
 * router and the store: each recipient gets its own sequence number in its
 * own JetStream inbox, and §8.5 visibility is decided per recipient.
 */
import { BROADCAST } from "../envelope.js";
import type { WireMessage } from "../messages.js";
import { EventSubscribePayloadSchema, EventUnsubscribePayloadSchema } from "../payloads/events.js";
import type { ClusterRouting } from "./bus.js";
import { isDurable } from "./router.js";

/** What the hub does with a checked message under a cluster bus. */
export type ClusterStep =
  /** Route it as usual (durable); `ready` resolves when a subscription change routes. */
  | { kind: "route"; ready: Promise<void> }
  /** The bus took it; acknowledge once `published` resolves. */
  | { kind: "published"; published: Promise<void> };

/** Hands `wire` to the cluster where it routes by subject. */
export function clusterStep(
  cluster: ClusterRouting,
  agentId: string,
  wire: WireMessage,
  payload: unknown,
  raw: string,
): ClusterStep {
  let ready: Promise<void> = Promise.resolve();
  if (wire.type === "ocp.event.subscribe" && payload !== undefined) {
    const parsed = EventSubscribePayloadSchema.safeParse(payload);
    if (parsed.success) {
      ready = cluster.subscribed({
        agentId,
        subscriptionId: parsed.data.subscriptionId,
        eventTypes: parsed.data.eventTypes,
        ...(parsed.data.filters === undefined ? {} : { filters: parsed.data.filters }),
      });
    }
  } else if (wire.type === "ocp.event.unsubscribe" && payload !== undefined) {
    const parsed = EventUnsubscribePayloadSchema.safeParse(payload);
    if (parsed.success) ready = cluster.unsubscribed(agentId, parsed.data.subscriptionId);
  }
  if (wire.to !== BROADCAST || isDurable(wire)) return { kind: "route", ready };
  const published = cluster.broadcast({
    id: wire.id,
    from: wire.from,
    type: wire.type,
    payload,
    bytes: Buffer.from(raw, "utf8"),
  });
  return { kind: "published", published: Promise.all([ready, published]).then(() => undefined) };
}
