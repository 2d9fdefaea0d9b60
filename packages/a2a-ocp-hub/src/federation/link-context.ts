/**
 * What one hub link uses of the federation and the hub (link.ts): the
 * inbound re-check's context, this hub's public cards, vouching, the peer's
 * outbox, and the audit entries of what crossed and what was refused.
 */
import type { AuditEntry, VisibilityPolicy } from "@ocp/a2a-ocp-messaging";
import { type createDecompressor, nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { hubStages } from "../check.js";
import type { OCPHub } from "../hub.js";
import type { FederationPeer } from "./config.js";
import { cardCrosses } from "./crossing.js";
import { holdRemoteSubscription, receiveEvent } from "./events.js";
import { type InboundContext, receiveQuery } from "./inbound.js";
import type { BudgetWindow, FederationBudget, LinkContext } from "./link.js";
import type { CrossingSeen } from "./observer.js";
import type { FederatedStore } from "./outbox.js";
import type { FederationRegistry } from "./registry.js";

/** The federation's parts a link context is built from. */
export interface FederationParts {
  readonly store: FederatedStore;
  readonly registry: FederationRegistry;
  /** This hub's agents (registered here). */
  readonly local: ReadonlySet<string>;
  readonly policy: () => VisibilityPolicy;
  readonly decompress: ReturnType<typeof createDecompressor>;
  readonly budget: FederationBudget;
  /** Each peer's budget window, by hub id (kept across its links: a reconnect does not refill it). */
  readonly windows: Map<string, BudgetWindow>;
  readonly onError: (error: unknown) => void;
  /** Audits `entry` and shows it to the federation's observers as `seen` says. */
  readonly audit: (entry: Omit<AuditEntry, "at">, seen: CrossingSeen) => void;
  /** A cluster's outbox of `peer` (cluster-outbox.ts); the SQLite outbox rows when absent. */
  readonly outbox?: (peer: string) => Pick<LinkContext, "pending" | "answered">;
  /** A remote agent now holds a subscription here (events.ts `EventRelay.watch`). */
  readonly watch: (agentId: string) => void;
}

export function linkContext(peer: FederationPeer, hub: OCPHub, f: FederationParts): LinkContext {
  const inner = f.store.inner;
  const outbox = f.outbox?.(peer.hubId);
  const now = Date.now;
  const subscriptions = {
    table: hub.subscriptions,
    store: hub.store,
    cluster: hub.bus.cluster,
    onError: f.onError,
  };
  const inbound: InboundContext = {
    peer,
    registry: f.registry,
    store: inner,
    check: {
      stages: hubStages(hub.options, now),
      ed25519: nativeEd25519,
      keyOf: (id) => f.registry.get(id)?.key,
    },
    local: () => f.local,
    isLocal: (id) => f.local.has(id),
    policy: () => f.policy(),
    decompress: f.decompress,
    deliver: (agentId, seq, raw) => hub.bus.deliver(agentId, { kind: "durable", seq, raw }),
    subscription: (wire, payload) =>
      holdRemoteSubscription(wire, payload, peer, subscriptions, f.watch),
    now,
  };
  return {
    inbound,
    budget: f.budget,
    window: windowOf(f.windows, peer.hubId),
    now,
    onError: f.onError,
    cards: async () => (await inner.agents()).filter((p) => f.local.has(p.id) && cardCrosses(p)),
    vouch: (card) => {
      const kept = f.registry.vouch(peer, card, (id) => f.local.has(id) || id === hub.self.id);
      if (kept === undefined) return undefined;
      if ("code" in kept) return kept;
      f.store.learned(kept.profile);
      return undefined;
    },
    query: (raw) =>
      receiveQuery(
        raw,
        inbound,
        (text, recipients) => {
          const bytes = Buffer.from(text, "utf8");
          for (const agent of recipients) hub.bus.deliver(agent, { kind: "transient", bytes });
        },
        () => hub.bus.attached(),
      ),
    event: (raw) =>
      receiveEvent(raw, inbound, (text, agent) =>
        hub.bus.deliver(agent, { kind: "transient", bytes: Buffer.from(text, "utf8") }),
      ),
    pending:
      outbox?.pending ??
      (async (afterSeq, limit) => inner.pending(peer.hubId, afterSeq, limit, now())),
    answered: outbox?.answered ?? ((seq) => f.registry.forwarded(peer.hubId, seq)),
    refused: (r) =>
      f.audit(
        {
          event: "refused",
          ...(r.id === undefined ? {} : { id: r.id }),
          ...(r.type === undefined ? {} : { type: r.type }),
          from: r.sent ? hub.self.id : (r.from ?? peer.hubId),
          to: [r.sent ? peer.hubId : hub.self.id],
          code: r.code,
          reason: `${r.sent ? `refused by ${peer.hubId}` : `from ${peer.hubId}`}: ${r.reason}`,
        },
        { peer: peer.hubId, direction: r.sent ? "out" : "in" },
      ),
    received: (outcome) =>
      f.audit(
        {
          event: "accepted",
          ...(outcome.wire === undefined
            ? {}
            : { id: outcome.wire.id, type: outcome.wire.type, from: outcome.wire.from }),
          from: outcome.wire?.from ?? peer.hubId,
          to: outcome.recipients,
          reason: `via ${peer.hubId}`,
        },
        { peer: peer.hubId, direction: "in", source: outcome.wire },
      ),
  };
}

function windowOf(windows: Map<string, BudgetWindow>, hubId: string): BudgetWindow {
  let window = windows.get(hubId);
  if (window === undefined) {
    window = { start: 0, messages: 0, bytes: 0, over: 0 };
    windows.set(hubId, window);
  }
  return window;
}
