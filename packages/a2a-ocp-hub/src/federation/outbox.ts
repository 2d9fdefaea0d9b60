/**
 * The sending side's durable outbox: a {@link HubStore} around the hub's
 * {@link SqliteStore} that, when a message is committed for agents of a peer
 * organisation, commits it in the same transaction for that peer's hub (one
 * delivery row per peer, with the peer hub id as recipient and the store's
 * per-recipient sequence number as the link `seq`) instead of for each
 * remote agent — after the crossing rule ({@link withheldFrom}) allowed it
 * to at least one of them. The link reads the rows with `pending`, forwards
 * them, and deletes each with `confirm` once the peer acknowledged (or
 * refused) it, so a message the sender was acknowledged is never lost with
 * a link or a hub. Everything else goes to the store unchanged; the peers'
 * vouched agents are added to `agents()`/`agent()` and announced through
 * `watchAgents`, so the hub routes to and shows them as it does for agents
 * of its own.
 */
import type { AgentProfile, EventSubscription } from "@ocp/a2a-ocp-messaging";
import type {
  CommitOutcome,
  ExpiredDelivery,
  HubStore,
  PendingDelivery,
  StoredMessage,
} from "../store.js";
import type { FederationRegistry, RemoteAgent } from "./registry.js";

/** The store the outbox wraps: one that looks up a single profile (SQLite, JetStream). */
export type FederatedInner = HubStore & Required<Pick<HubStore, "agent">>;

/** What the outbox asks of the federation. */
export interface OutboxHooks {
  /** Why `stored` may not reach `agent`; `undefined` when it may. */
  withheld(stored: StoredMessage, agent: RemoteAgent): Promise<string | undefined>;
  /** A profile the shared store reports (an agent registered at another hub of a cluster). */
  agent?(profile: AgentProfile): void;
  /** After a commit: what crossed (for each message, the peers it is queued for) and what was withheld. */
  committed(
    crossed: ReadonlyArray<{ stored: StoredMessage; peers: readonly string[] }>,
    withheld: ReadonlyArray<{ stored: StoredMessage; agent: string; reason: string }>,
  ): void;
}

export class FederatedStore implements HubStore {
  /** The SQLite store, or a cluster's JetStream store (src/nats/federation-share.ts). */
  readonly inner: FederatedInner;
  readonly #registry: FederationRegistry;
  #hooks: OutboxHooks | undefined;
  #watch: ((profile: AgentProfile) => void) | undefined;

  readonly #admits: (profile: AgentProfile) => boolean;

  /** `admits`: whether an agent may register at this hub (false: it is a peer organisation's). */
  constructor(
    inner: FederatedInner,
    registry: FederationRegistry,
    admits: (profile: AgentProfile) => boolean,
  ) {
    this.inner = inner;
    this.#registry = registry;
    this.#admits = admits;
  }

  /** The hub asks at every registration: an agent of a peer organisation may not register here. */
  refuses(profile: AgentProfile): string | undefined {
    return this.#admits(profile)
      ? undefined
      : `${profile.id} is not admitted (a peer organisation's agent)`;
  }

  get connected(): boolean | undefined {
    return this.inner.connected;
  }

  get retentionMs(): number | undefined {
    return this.inner.retentionMs;
  }

  /** Set by the federation when it is built, before the hub commits anything. */
  useHooks(hooks: OutboxHooks): void {
    this.#hooks = hooks;
  }

  /** A peer vouched for `profile`: the hub learns it (routing, discovery, lookup). */
  learned(profile: AgentProfile): void {
    this.#watch?.(profile);
  }

  async commit(batch: readonly StoredMessage[]): Promise<CommitOutcome[]> {
    const hooks = this.#hooks;
    if (hooks === undefined) return this.inner.commit(batch);
    const mapped: StoredMessage[] = [];
    const crossed: Array<{ stored: StoredMessage; peers: string[] }> = [];
    const withheld: Array<{ stored: StoredMessage; agent: string; reason: string }> = [];
    for (const stored of batch) {
      const remote = stored.recipients.flatMap((id) => this.#registry.get(id) ?? []);
      if (remote.length === 0) {
        mapped.push(stored);
        continue;
      }
      const peers = new Set<string>();
      for (const agent of remote) {
        const reason = await hooks.withheld(stored, agent);
        if (reason === undefined) peers.add(agent.peer);
        else withheld.push({ stored, agent: agent.profile.id, reason });
      }
      const local = stored.recipients.filter((id) => this.#registry.get(id) === undefined);
      mapped.push({ ...stored, recipients: [...local, ...peers] });
      if (peers.size > 0) crossed.push({ stored, peers: [...peers] });
    }
    const outcomes = await this.inner.commit(mapped);
    const fresh = new Set(outcomes.filter((o) => !o.duplicate).map((o) => o.id));
    hooks.committed(
      crossed.filter((c) => fresh.has(c.stored.id)),
      withheld.filter((w) => fresh.has(w.stored.id)),
    );
    return outcomes;
  }

  pending(
    agentId: string,
    afterSeq: number,
    limit: number,
    now: number,
  ): Promise<PendingDelivery[]> {
    return this.inner.pending(agentId, afterSeq, limit, now);
  }

  confirm(agentId: string, seq: number): Promise<void> {
    return this.inner.confirm(agentId, seq);
  }

  saveAgent(profile: AgentProfile): Promise<void> {
    return this.inner.saveAgent(profile);
  }

  async agent(agentId: string): Promise<AgentProfile | undefined> {
    return (await this.inner.agent(agentId)) ?? this.#registry.get(agentId)?.profile;
  }

  async agents(): Promise<AgentProfile[]> {
    const local = await this.inner.agents();
    const ids = new Set(local.map((p) => p.id));
    const remote = [...this.#registry.all()].map((a) => a.profile).filter((p) => !ids.has(p.id));
    return [...local, ...remote];
  }

  async watchAgents(listener: (profile: AgentProfile) => void): Promise<void> {
    this.#watch = listener;
    await this.inner.watchAgents?.((profile) => {
      this.#hooks?.agent?.(profile);
      listener(profile);
    });
  }

  saveSubscription(subscription: EventSubscription): Promise<void> {
    return this.inner.saveSubscription(subscription);
  }

  removeSubscription(agentId: string, subscriptionId: string): Promise<void> {
    return this.inner.removeSubscription(agentId, subscriptionId);
  }

  subscriptions(): Promise<EventSubscription[]> {
    return this.inner.subscriptions();
  }

  sweep(now: number, onExpired?: (expired: ExpiredDelivery[]) => void): Promise<number> {
    return this.inner.sweep(now, onExpired);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
