/**
 * Events across the boundary (§5.5), only between peers that both opted in
 * with `events: true`:
 *
 * - a remote agent's `ocp.event.subscribe` (durable and addressed, it
 *   crosses like any message) is applied to this hub's subscription table
 *   for that agent when its hub opted in ({@link holdRemoteSubscription}),
 *   else refused `federation_withheld`;
 * - the {@link EventRelay} attaches to the hub's bus under each remote agent
 *   with a subscription here, so the hub's own §5.5.4 notification for it
 *   (hub-signed, carrying the publisher's signed `ocpPublish`) is forwarded
 *   over the link (`ocp.fed.event`, transient) when the crossing rule lets
 *   the event reach that agent;
 * - the receiving hub re-checks it ({@link receiveEvent}): signed by the
 *   peer's hub key, its `ocpPublish` signed by an agent that peer vouched
 *   for, its `event` the publish's payload, addressed to one of its own
 *   agents, and the nodes by the crossing rule; then it is handed live.
 */
import {
  type AuditEntry,
  BROADCAST,
  canonicalize,
  type VisibilityPolicy,
  verifyMessageSync,
  type WireMessage,
} from "@ocp/a2a-ocp-messaging";
import type { createDecompressor } from "@ocp/a2a-ocp-messaging/node";
import { EventPublishPayloadSchema } from "@ocp/a2a-ocp-messaging/schemas";
import type { HubBus } from "../bus.js";
import { checkInbound } from "../check.js";
import { readablePayload } from "../readable.js";
import {
  type ApplyContext,
  holdSubscription,
  type PendingSubscription,
  planSubscription,
} from "../subscription-messages.js";
import type { FederationConfig, FederationPeer } from "./config.js";
import { cardCrosses, isSubscriptionType, nodesWithheld } from "./crossing.js";
import type { InboundContext, InboundOutcome } from "./inbound.js";
import type { FederatedInner } from "./outbox.js";
import type { FederationRegistry } from "./registry.js";

/** Why `type` may not cross to or from `peer`: a subscription without the events opt-in. */
export function subscriptionWithheld(type: string, peer: FederationPeer): string | undefined {
  if (!isSubscriptionType(type) || peer.events) return undefined;
  return `${type} does not cross: events are not opted in with ${peer.hubId}`;
}

/**
 * Holds what a remote agent's subscribe or unsubscribe changes here, to apply
 * once it is committed (as the hub does for its own agents): the pending
 * change, or the refusal (`federation_withheld` without the opt-in,
 * `invalid_message`, `rate_limited` past the subscriptions per agent).
 */
export function holdRemoteSubscription(
  wire: WireMessage,
  payload: unknown,
  peer: FederationPeer,
  context: ApplyContext,
  watch: (agentId: string) => void,
): PendingSubscription | { code: string; reason: string } {
  const withheld = subscriptionWithheld(wire.type, peer);
  if (withheld !== undefined) return { code: "federation_withheld", reason: withheld };
  const planned = planSubscription(wire.type, wire.from, payload);
  if (!planned.ok) return { code: planned.code, reason: planned.message };
  const pending = holdSubscription(planned.change, context);
  if ("refused" in pending) return { code: "rate_limited", reason: pending.refused };
  if (planned.change?.kind !== "subscribe") return pending;
  return {
    apply: () => {
      watch(wire.from);
      return pending.apply();
    },
    release: () => pending.release(),
  };
}

/** What the relay uses of the federation and the hub. */
export interface EventRelayContext {
  readonly bus: HubBus;
  readonly config: FederationConfig;
  readonly registry: FederationRegistry;
  /** The hub's own store (its agents' cards and the subscriptions). */
  readonly store: FederatedInner;
  readonly local: ReadonlySet<string>;
  readonly policy: () => VisibilityPolicy;
  readonly decompress: ReturnType<typeof createDecompressor>;
  /** Sends a notification on `peer`'s link; false when the link is down. */
  readonly send: (peer: string, raw: string) => boolean;
  readonly audit: (entry: Omit<AuditEntry, "at">) => void;
  readonly onError: (error: unknown) => void;
}

/** Forwards this hub's notifications for remote subscribers over their hub's link. */
export class EventRelay {
  readonly #ctx: EventRelayContext;
  readonly #detach = new Map<string, () => void>();

  constructor(ctx: EventRelayContext) {
    this.#ctx = ctx;
  }

  /** Watches the remote subscribers the store kept (a restart). */
  async start(): Promise<void> {
    for (const subscription of await this.#ctx.store.subscriptions()) {
      this.watch(subscription.agentId);
    }
  }

  /** Attaches to the bus under `agentId` when it is an agent of a peer that opted in to events. */
  watch(agentId: string): void {
    if (this.#detach.has(agentId) || this.#peerOf(agentId) === undefined) return;
    const detach = this.#ctx.bus.attach(agentId, (delivery) => {
      if (delivery.kind === "transient") this.#forward(agentId, delivery.bytes.toString("utf8"));
    });
    this.#detach.set(agentId, detach);
  }

  close(): void {
    for (const detach of this.#detach.values()) detach();
    this.#detach.clear();
  }

  #peerOf(agentId: string): FederationPeer | undefined {
    const remote = this.#ctx.registry.get(agentId);
    const peer = this.#ctx.config.peers.find((p) => p.hubId === remote?.peer);
    return peer?.events === true ? peer : undefined;
  }

  /** A delivery the hub made to remote `agentId`: only a notification crosses, by the crossing rule. */
  #forward(agentId: string, raw: string): void {
    const peer = this.#peerOf(agentId);
    const note = parseNote(raw);
    if (peer === undefined || note?.type !== "ocp.event.notification") return;
    const publish = (note.payload as { ocpPublish?: WireMessage }).ocpPublish;
    if (publish === undefined || !this.#ctx.local.has(publish.from)) return;
    const record = { id: publish.id, from: publish.from, type: publish.type, to: [agentId] };
    const refuse = (reason: string) =>
      this.#ctx.audit({ event: "refused", ...record, code: "federation_withheld", reason });
    this.#ctx.store.agent(publish.from).then((sender) => {
      if (sender === undefined || !cardCrosses(sender)) {
        refuse(`the card of ${publish.from} is not public: other organisations cannot verify it`);
        return;
      }
      const readable = readablePayload(publish, this.#ctx.decompress);
      if ("refused" in readable) return refuse(readable.refused.message);
      const withheld = nodesWithheld(publish, readable.payload, agentId, this.#ctx.policy());
      if (withheld !== undefined) return refuse(withheld);
      if (this.#ctx.send(peer.hubId, raw)) this.#ctx.audit({ event: "delivered", ...record });
    }, this.#ctx.onError);
  }
}

/** Text the hub signed or checked; `undefined` if it is not JSON after all (never thrown into the bus). */
function parseNote(raw: string): WireMessage | undefined {
  try {
    return JSON.parse(raw) as WireMessage;
  } catch {
    return undefined;
  }
}

/**
 * A notification a peer forwarded (`ocp.fed.event`): nothing in it is taken
 * on trust. Handed live to the agent it is addressed to (`deliverLive`).
 */
export function receiveEvent(
  raw: string,
  ctx: InboundContext,
  deliverLive: (raw: string, agentId: string) => void,
): InboundOutcome {
  const { peer } = ctx;
  const refuse = (code: string, reason: string): InboundOutcome => ({ ok: false, code, reason });
  if (!peer.events) {
    return refuse("federation_withheld", `events are not opted in with ${peer.hubId}`);
  }
  const hubKey = Buffer.from(peer.publicKey, "base64");
  const check = {
    ...ctx.check,
    keyOf: (id: string) => (id === peer.hubId ? new Uint8Array(hubKey) : undefined),
  };
  const checked = checkInbound(raw, peer.hubId, () => true, check);
  if (!checked.ok) return refuse(checked.error.code, checked.error.message);
  const { wire } = checked.value;
  if (wire.type !== "ocp.event.notification" || typeof wire.to !== "string") {
    return refuse("federation_frame_invalid", "ocp.fed.event carries only an event notification");
  }
  if (!ctx.isLocal(wire.to)) {
    return refuse("recipient_unknown", `${wire.to.slice(0, 512)} is not an agent of this hub`);
  }
  const readable = readablePayload(wire, ctx.decompress);
  if ("refused" in readable) return refuse(readable.refused.code, readable.refused.message);
  const note = readable.payload as { event?: unknown; ocpPublish?: unknown } | undefined;
  const publish = note?.ocpPublish as WireMessage | undefined;
  if (typeof publish !== "object" || publish === null || typeof publish.from !== "string") {
    return refuse("federation_frame_invalid", "the notification carries no signed ocpPublish");
  }
  const author = ctx.registry.get(publish.from);
  if (author === undefined || author.peer !== peer.hubId) {
    const from = publish.from.slice(0, 512);
    return refuse(
      "federation_spoofed",
      `${peer.hubId} forwarded an event of ${from}, an agent it did not vouch for`,
    );
  }
  const signature = verifyMessageSync(
    publish,
    (id) => (id === author.profile.id ? author.key : undefined),
    ctx.check.ed25519,
  );
  if (!signature.ok) return refuse(signature.error.code, signature.error.message);
  if (publish.type !== "ocp.event.publish" || publish.to !== BROADCAST) {
    return refuse("federation_frame_invalid", "ocpPublish is not an event publish broadcast");
  }
  const published = readablePayload(publish, ctx.decompress);
  if ("refused" in published) return refuse(published.refused.code, published.refused.message);
  const event = EventPublishPayloadSchema.safeParse(published.payload);
  if (!event.success || canonicalize(event.data) !== canonicalize(note?.event)) {
    return refuse("federation_frame_invalid", "the notification's event is not its publish's");
  }
  const withheld = nodesWithheld(publish, published.payload, wire.to, ctx.policy());
  if (withheld !== undefined) return refuse("federation_withheld", withheld);
  deliverLive(raw, wire.to);
  return { ok: true, resent: false, wire, recipients: [wire.to] };
}
