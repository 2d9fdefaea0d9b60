/**
 * The cluster side of a federation (src/nats/federation-share.ts has what the hubs share):
 * joining it, and a peer's outbox on a cluster's JetStream store, as the hub holding its
 * link reads it: the peer hub id's inbox stream (outbox.ts commits there).
 * The stream's `confirm` drops everything up to a sequence number, so an
 * answer confirms only up to the oldest entry read but not yet answered: an
 * entry the peer put back (over budget) or still has in flight is read
 * again by this link, or by the hub that takes the link after this one dies
 * (the peer acknowledges a resend again, never applies it twice).
 */
import type { AgentProfile } from "@ocp/a2a-ocp-messaging";
import { CLOSE_CODES } from "@ocp/transport-ws";
import type { FederationClusterOptions } from "../nats/federation-share.js";
import type { HubStore } from "../store.js";
import type { FederationConfig, FederationPeer } from "./config.js";
import { cardCrosses } from "./crossing.js";
import type { Dialer } from "./dial.js";
import { FEDERATION_CLUSTER_PUMP_MS } from "./limits.js";
import type { LinkContext, PeerLink } from "./link.js";
import type { FederatedStore } from "./outbox.js";
import type { FederationRegistry } from "./registry.js";

export function clusterOutbox(
  store: HubStore,
  peer: string,
  onError: (error: unknown) => void,
): Pick<LinkContext, "pending" | "answered"> {
  /** Entries read and not yet answered. */
  const outstanding = new Set<number>();
  let highest = 0;
  let confirmed = 0;
  return {
    async pending(afterSeq, limit) {
      const entries = await store.pending(peer, afterSeq, limit, Date.now());
      for (const { seq } of entries) if (seq > confirmed) outstanding.add(seq);
      return entries;
    },
    answered(seq) {
      if (!outstanding.delete(seq)) return;
      highest = Math.max(highest, seq);
      let floor = highest;
      for (const open of outstanding) floor = Math.min(floor, open - 1);
      if (floor <= confirmed) return;
      confirmed = floor;
      store.confirm(peer, floor).catch(onError);
    },
  };
}

/** What a hub of a cluster adds to its federation (federation.ts). */
export interface JoinedCluster {
  /** Whether this hub holds `peer`'s link now (the others refuse it `federation_standby`). */
  holds(peer: string): boolean;
  /** A profile registered at a hub of the cluster: this organisation's, announced on open links. */
  agent(profile: AgentProfile): void;
  /** Gives up the leases and stops dialling. */
  close(): Promise<void>;
}

/** The federation's parts the cluster wiring uses. */
export interface ClusterParts {
  config: FederationConfig;
  registry: FederationRegistry;
  store: FederatedStore;
  local: Set<string>;
  hubId: string;
  links: ReadonlyMap<string, PeerLink>;
  onError: (error: unknown) => void;
  /** Tells the operator which links this hub took or gave up. */
  notice: (text: string) => void;
  /** A dialer of `peer` (not started), or `undefined` when the federation is closing. */
  dial(peer: FederationPeer): Dialer | undefined;
}

/** Joins the cluster's federation: shared cards and inbound record, one holder per peer link. */
export async function joinCluster(
  options: FederationClusterOptions,
  f: ClusterParts,
): Promise<JoinedCluster> {
  const cluster = await options.open(f.onError);
  const registry = f.registry;
  registry.sharing = {
    card: (peer, profile) => cluster.shareCard(peer, profile),
    inbound: (peer, id, seq, expiresAt) => cluster.shareInbound(peer, id, seq, expiresAt),
  };
  await cluster.watch({
    card: (hubId, card) => {
      const peer = f.config.peers.find((p) => p.hubId === hubId);
      if (peer === undefined) return;
      const isLocal = (id: string) => f.local.has(id) || id === f.hubId;
      const kept = registry.applyShared(() => registry.vouch(peer, card, isLocal));
      if (kept !== undefined && !("code" in kept)) f.store.learned(kept.profile);
    },
    inbound: (peer, id, seq, expiresAt) =>
      registry.applyShared(() => registry.recordInbound(peer, id, seq, expiresAt, Date.now())),
  });
  const held = new Map<string, Dialer>();
  for (const peer of f.config.peers) {
    cluster.contend(
      peer.hubId,
      () => {
        f.notice(`this hub holds the link of ${peer.hubId}`);
        if (peer.url === undefined) return; // The peer dials: this hub now accepts its link.
        const dialer = f.dial(peer);
        if (dialer === undefined) return;
        held.set(peer.hubId, dialer);
        dialer.start();
      },
      () => {
        f.notice(`this hub no longer holds the link of ${peer.hubId}`);
        held.get(peer.hubId)?.stop().catch(f.onError);
        held.delete(peer.hubId);
        f.links.get(peer.hubId)?.close(CLOSE_CODES.GOING_AWAY, "another hub holds the link");
      },
    );
  }
  // What the other hubs of the cluster commit for a peer reaches the holder through its outbox.
  const pump = setInterval(() => {
    for (const link of f.links.values()) link.pump();
  }, FEDERATION_CLUSTER_PUMP_MS);
  pump.unref();
  return {
    holds: (peer) => cluster.holds(peer),
    agent(profile) {
      if (registry.get(profile.id) !== undefined) return;
      f.local.add(profile.id);
      if (!cardCrosses(profile)) return;
      for (const link of f.links.values()) if (link.open) link.sendCards([profile]);
    },
    async close() {
      clearInterval(pump);
      await cluster.close();
      await Promise.all([...held.values()].map((d) => d.stop()));
    },
  };
}
