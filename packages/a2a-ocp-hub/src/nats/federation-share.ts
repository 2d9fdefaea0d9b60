/**
 * Federation from a NATS-clustered organisation: what the hubs of one
 * workspace share so that any of them can hold a peer's link, and another
 * takes it when that hub dies.
 *
 * - The outbox is the JetStream store itself: a message committed for a
 *   peer's agents is committed for the peer hub's id (outbox.ts), so it sits
 *   in that id's inbox stream, stored before the sender is acknowledged and
 *   readable by every hub of the cluster.
 * - One hub holds each peer link: a lease, key `<peer>` in the KV bucket
 *   `OCP_<ws>_FED_LEASES` whose entries live {@link FEDERATION_LEASE_TTL_MS};
 *   the holder renews it every {@link FEDERATION_LEASE_RENEW_MS}, the others
 *   try to take it as often, and do so once it expired (its holder died).
 * - The cards the peer vouched for (`OCP_<ws>_FED_CARDS`) and the record of
 *   what each peer forwarded (`OCP_<ws>_FED_INBOUND`) are shared: every hub
 *   applies them to its own registry (re-verifying each card), so every hub
 *   routes to the peer's agents, and a resend after a failover is
 *   acknowledged again instead of applied twice.
 */
import { randomUUID } from "node:crypto";
import { type KV, Kvm, KvWatchInclude } from "@nats-io/kv";
import type { NatsConnection } from "@nats-io/transport-node";
import type { AgentProfile } from "@ocp/a2a-ocp-messaging";
import { FEDERATION_LEASE_RENEW_MS, FEDERATION_LEASE_TTL_MS } from "../federation/limits.js";
import type { FederatedInner } from "../federation/outbox.js";
import { agentToken, type Subjects } from "../nats/subjects.js";

/** A clustered hub's NATS parts its federation uses ({@link federationShare}). */
export interface FederationShareOptions {
  /** The hub's NATS connection (connectNats). */
  connection: NatsConnection;
  /** The hub's JetStream store: the outbox lives in it. */
  store: FederatedInner;
  /** The workspace's subjects. */
  subjects: Subjects;
  /** JetStream replicas of the federation buckets (as the store's). */
  replicas?: number;
}

/**
 * What a clustered hub gives its federation (`FederationOptions.cluster`):
 * its JetStream store, and how to open the shared buckets (this module, with
 * the optional `@nats-io` packages, is loaded only by those who cluster).
 */
export interface FederationClusterOptions {
  store: FederatedInner;
  open(onError: (error: unknown) => void): Promise<FederationCluster>;
}

/** The cluster options of a federation on `options` (e.g. `connectNats`'s result). */
export function federationShare(options: FederationShareOptions): FederationClusterOptions {
  return {
    store: options.store,
    open: (onError) => FederationCluster.open(options, onError),
  };
}

/** A peer's link as one hub of the cluster holds it or stands by. */
interface Lease {
  revision: number | undefined;
  /** A create or renewal not answered yet: the next tick waits for it. */
  busy: boolean;
  acquired: () => void;
  lost: () => void;
}

export class FederationCluster {
  /** This hub process, as the lease names its holder. */
  readonly instance = randomUUID();
  readonly #leases: KV;
  readonly #cards: KV;
  readonly #inbound: KV;
  readonly #held = new Map<string, Lease>();
  readonly #onError: (error: unknown) => void;
  readonly #stops: Array<() => void> = [];
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  private constructor(leases: KV, cards: KV, inbound: KV, onError: (error: unknown) => void) {
    this.#leases = leases;
    this.#cards = cards;
    this.#inbound = inbound;
    this.#onError = onError;
  }

  /** Opens (creating when absent) the workspace's federation buckets. */
  static async open(
    options: FederationShareOptions,
    onError: (error: unknown) => void,
  ): Promise<FederationCluster> {
    const kvm = new Kvm(options.connection);
    const replicas = options.replicas ?? 1;
    const ws = options.subjects.workspace;
    const leases = await kvm.create(`OCP_${ws}_FED_LEASES`, {
      history: 1,
      replicas,
      ttl: FEDERATION_LEASE_TTL_MS,
    });
    const cards = await kvm.create(`OCP_${ws}_FED_CARDS`, { history: 1, replicas });
    const inbound = await kvm.create(`OCP_${ws}_FED_INBOUND`, {
      history: 1,
      replicas,
      ...(options.store.retentionMs === undefined ? {} : { ttl: options.store.retentionMs }),
    });
    return new FederationCluster(leases, cards, inbound, onError);
  }

  /** Whether this hub holds `peerHubId`'s link now. */
  holds(peerHubId: string): boolean {
    return this.#held.get(peerHubId)?.revision !== undefined;
  }

  /**
   * Contends for `peerHubId`'s link from now on: `acquired` when this hub
   * takes the lease (dial, forward), `lost` when it cannot renew it (stop).
   */
  contend(peerHubId: string, acquired: () => void, lost: () => void): void {
    this.#held.set(peerHubId, { revision: undefined, busy: false, acquired, lost });
    this.#timer ??= setInterval(() => this.#tick(), FEDERATION_LEASE_RENEW_MS);
    this.#timer.unref();
    this.#tick();
  }

  #tick(): void {
    for (const [peer, lease] of this.#held) {
      if (lease.busy) continue;
      lease.busy = true;
      const key = agentToken(peer);
      const attempt =
        lease.revision === undefined
          ? this.#leases.create(key, this.instance)
          : this.#leases.update(key, this.instance, lease.revision);
      attempt.then(
        (revision) => {
          lease.busy = false;
          if (this.#closed) {
            // Taken while closing: give it up at once.
            this.#leases.delete(key, { previousSeq: revision }).catch(() => undefined);
            return;
          }
          const was = lease.revision;
          lease.revision = revision;
          if (was === undefined) lease.acquired();
        },
        () => {
          lease.busy = false;
          // Another hub holds it (or NATS did not answer): stand by, try again next tick.
          if (lease.revision === undefined) return;
          lease.revision = undefined;
          lease.lost();
        },
      );
    }
  }

  /** Shares a card a peer vouched for with the other hubs of the cluster. */
  shareCard(peer: string, profile: AgentProfile): void {
    this.#cards.put(agentToken(profile.id), JSON.stringify({ peer, profile })).catch(this.#onError);
  }

  /** Shares that message `id`, forwarded by `peer` as `seq`, was committed. */
  shareInbound(peer: string, id: string, seq: number, expiresAt: number): void {
    this.#inbound
      .put(`${agentToken(peer)}.${agentToken(id)}`, JSON.stringify({ peer, id, seq, expiresAt }))
      .catch(this.#onError);
  }

  /** Hands every shared card and inbound record, those there now and those to come, to the hub's registry. */
  async watch(handlers: {
    card: (peer: string, profile: unknown) => void;
    inbound: (peer: string, id: string, seq: number, expiresAt: number) => void;
  }): Promise<void> {
    const follow = async (kv: KV, apply: (value: Record<string, unknown>) => void) => {
      const watch = await kv.watch({ include: KvWatchInclude.AllHistory });
      this.#stops.push(() => watch.stop());
      (async () => {
        for await (const entry of watch) {
          if (entry.operation !== "PUT") continue;
          try {
            const value = entry.json<Record<string, unknown>>();
            if (value !== null && typeof value === "object") apply(value);
          } catch {
            // Not JSON: nothing a hub of this cluster wrote.
          }
        }
      })().catch(this.#onError);
    };
    await follow(this.#cards, (v) => {
      if (typeof v["peer"] === "string") handlers.card(v["peer"], v["profile"]);
    });
    await follow(this.#inbound, (v) => {
      const { peer, id, seq, expiresAt } = v;
      if (
        typeof peer === "string" &&
        typeof id === "string" &&
        Number.isSafeInteger(seq) &&
        Number.isSafeInteger(expiresAt)
      ) {
        handlers.inbound(peer, id, seq as number, expiresAt as number);
      }
    });
  }

  /** Stops contending and watching; gives up the leases it holds so another hub takes them at once. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    for (const stop of this.#stops.splice(0)) stop();
    await Promise.all(
      [...this.#held].map(async ([peer, lease]) => {
        const revision = lease.revision;
        if (revision === undefined) return;
        lease.revision = undefined;
        await this.#leases
          .delete(agentToken(peer), { previousSeq: revision })
          .catch(() => undefined);
      }),
    );
  }
}
