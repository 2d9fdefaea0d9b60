/**
 * {@link HubStore} on NATS JetStream, shared by every hub of a workspace.
 *
 * - Deliveries: one stream per agent (`OCP_<ws>_IN_<agent>`, see
 *   `subjects.ts`), republishing what it stores to the agent's live subject. Committing a message publishes it once into each
 *   recipient's stream with `Nats-Msg-Id` = the message id; the stream
 *   sequence is the recipient's delivery sequence number, so an agent that
 *   moves to another hub resumes from the last sequence it saw, and a resend
 *   of the same message (after a lost ack, to another hub) is dropped by the
 *   stream's duplicate window (`NATS_DUPLICATE_WINDOW_MS`, as `maxAgeMs`). A message is a
 *   duplicate when every recipient's stream reports it as one.
 * - `confirm` makes reads skip a stream up to the confirmed sequence at
 *   once, and purges it in batches (purges.ts); expired
 *   deliveries are skipped on read and aged out by the stream's `max_age`
 *   (`maxAgeMs`, never shorter than a message may live: the hub checks
 *   `retentionMs`; an older stream with a shorter one is raised to it).
 * - Profiles and event subscriptions: two KV buckets. The first key seen for
 *   an agent is pinned cluster-wide (create-if-absent).
 *
 * Commits are acknowledged once JetStream has stored them (file storage):
 * the hub acknowledges a message to its sender only then. Commits are
 * pipelined (see commit.ts and js-publisher.ts).
 */

import { type JetStreamManager, jetstreamManager } from "@nats-io/jetstream";
import { type KV, Kvm, KvWatchInclude } from "@nats-io/kv";
import { type NatsConnection, nanos } from "@nats-io/transport-node";
import type { AgentProfile, EventSubscription } from "@ocp/a2a-ocp-messaging";
import { settlesWithin } from "@ocp/types/internal";
import { hubError } from "../errors.js";
import type { CommitOutcome, HubStore, PendingDelivery, StoredMessage } from "../store.js";
import { JsCommitter } from "./commit.js";
import { readInbox } from "./inbox-read.js";
import { JsPublisher } from "./js-publisher.js";
import { parseProfile, parseSubscription } from "./kv-values.js";
import {
  NATS_COMMIT_PIPELINE,
  NATS_INBOX_MAX_AGE_MS,
  NATS_PURGE_DELAY_MS,
  NATS_RECONNECT_GRACE_MS,
  NATS_REQUEST_TIMEOUT_MS,
} from "./limits.js";
import { ConfirmedFloors } from "./purges.js";
import { agentToken, type Subjects } from "./subjects.js";

export interface JetStreamStoreOptions {
  /** The connection. */
  connection: NatsConnection;
  /** Drain and close the connection when the store closes (the hub closes its store last). */
  ownsConnection?: boolean;
  /**
   * JetStream replicas of every stream and bucket: 1 (default) on one
   * server; 3 on a NATS cluster of three or more servers, so that losing a
   * server loses nothing.
   */
  replicas?: number;
  /** The workspace's subjects. */
  subjects: Subjects;
  /**
   * `max_age` and duplicate window of the inbox streams, ms
   * ({@link NATS_INBOX_MAX_AGE_MS}: the longest a message may live with the
   * default clock skew). Raise it for a hub with a larger `maxClockSkewMs`.
   */
  maxAgeMs?: number;
  /**
   * How long commits in flight when the connection is lost wait for the
   * reconnect, ms ({@link NATS_RECONNECT_GRACE_MS}); meanwhile new ones are
   * refused at once (`store_failed`).
   */
  reconnectGraceMs?: number;
}

export class JetStreamStore implements HubStore {
  readonly subjects: Subjects;
  /** Batches in flight at once (commit.ts publishes them in call order). */
  readonly commitPipeline = NATS_COMMIT_PIPELINE;
  readonly #nc: NatsConnection;
  readonly #committer: JsCommitter;
  readonly #jsm: JetStreamManager;
  readonly #agents: KV;
  readonly #subs: KV;
  /** Inbox streams known to exist. */
  readonly #streams = new Set<string>();
  /** Inbox streams known to republish what they store to the agent's live subject. */
  readonly #republishing = new Set<string>();
  readonly #publisher: JsPublisher;
  /** Confirmed deliveries: skipped on read at once, purged in batches (purges.ts). */
  readonly #floors: ConfirmedFloors;
  readonly #watchers: Array<{ stop: () => void }> = [];
  #closed = false;
  #owns = false;
  #replicas = 1;
  #maxAgeMs = NATS_INBOX_MAX_AGE_MS;

  private constructor(
    nc: NatsConnection,
    subjects: Subjects,
    jsm: JetStreamManager,
    agents: KV,
    subs: KV,
    reconnectGraceMs: number,
  ) {
    this.#nc = nc;
    this.subjects = subjects;
    this.#publisher = new JsPublisher(nc, NATS_REQUEST_TIMEOUT_MS, reconnectGraceMs);
    this.#committer = new JsCommitter(this.#publisher, subjects, (agent) =>
      this.ensureInbox(agent),
    );
    this.#jsm = jsm;
    this.#floors = new ConfirmedFloors({
      purge: async (stream, upTo) => {
        await jsm.streams.purge(stream, { seq: upTo + 1 });
      },
    });
    this.#agents = agents;
    this.#subs = subs;
  }

  /** Opens (creating when absent) the workspace's KV buckets. */
  static async open(options: JetStreamStoreOptions): Promise<JetStreamStore> {
    const nc = options.connection;
    const jsm = await jetstreamManager(nc, { timeout: NATS_REQUEST_TIMEOUT_MS });
    const replicas = options.replicas ?? 1;
    if (!Number.isInteger(replicas) || replicas < 1 || replicas > 5) {
      throw hubError("invalid_option", "replicas is an integer from 1 to 5");
    }
    const maxAgeMs = options.maxAgeMs ?? NATS_INBOX_MAX_AGE_MS;
    if (!Number.isSafeInteger(maxAgeMs) || maxAgeMs < 1) {
      throw hubError("invalid_option", "maxAgeMs is a positive integer (ms)");
    }
    const graceMs = options.reconnectGraceMs ?? NATS_RECONNECT_GRACE_MS;
    if (!Number.isSafeInteger(graceMs) || graceMs < 0 || graceMs > NATS_REQUEST_TIMEOUT_MS) {
      throw hubError(
        "invalid_option",
        `reconnectGraceMs is an integer from 0 to ${NATS_REQUEST_TIMEOUT_MS} (ms)`,
      );
    }
    const kvm = new Kvm(nc);
    const agents = await kvm.create(options.subjects.agentsBucket, { history: 1, replicas });
    const subs = await kvm.create(options.subjects.subscriptionsBucket, { history: 1, replicas });
    const store = new JetStreamStore(nc, options.subjects, jsm, agents, subs, graceMs);
    store.#owns = options.ownsConnection === true;
    store.#replicas = replicas;
    store.#maxAgeMs = maxAgeMs;
    return store;
  }

  /**
   * Whether `agentId`'s inbox stream republishes each stored delivery to its
   * live subject (made by this release; a stream of an older one, on a
   * nats-server that cannot add republish, does not: the bus publishes live).
   */
  republishes(agentId: string): boolean {
    return this.#republishing.has(this.subjects.inboxStream(agentId));
  }

  /** How long an inbox stream keeps a delivery, ms (its `max_age`). */
  get retentionMs(): number {
    return this.#maxAgeMs;
  }

  /** Creates the inbox stream of `agentId` unless it is known to exist. */
  async ensureInbox(agentId: string): Promise<string> {
    const name = this.subjects.inboxStream(agentId);
    if (this.#streams.has(name)) return name;
    const ages = { max_age: nanos(this.#maxAgeMs), duplicate_window: nanos(this.#maxAgeMs) };
    // Every stored delivery is republished by the server to the agent's live subject (with
    // its `Nats-Sequence`): the hub attached to the agent gets it once stored, no hub publishes it.
    const republish = { src: this.subjects.inbox(agentId), dest: this.subjects.live(agentId) };
    const existing = await this.#jsm.streams.info(name).catch(() => undefined);
    if (existing !== undefined) {
      // A stream of an older release: a shorter max_age would drop deliveries early; no republish.
      const { config } = existing;
      let republishes = config.republish?.dest === republish.dest;
      if (!republishes) {
        // nats-server before 2.10 cannot add republish to a stream: the hub publishes live then.
        republishes = await this.#jsm.streams.update(name, { ...ages, republish }).then(
          () => true,
          () => false,
        );
      }
      if (!republishes && config.max_age < ages.max_age) {
        await this.#jsm.streams.update(name, ages);
      }
      if (republishes) this.#republishing.add(name);
    } else {
      try {
        await this.#jsm.streams.add({
          name,
          subjects: [this.subjects.inbox(agentId)],
          storage: "file",
          num_replicas: this.#replicas,
          republish,
          ...ages,
        } as Parameters<JetStreamManager["streams"]["add"]>[0]);
        this.#republishing.add(name);
      } catch (error) {
        // Another hub created it in between: fine; anything else is a failure.
        await this.#jsm.streams.info(name).catch(() => {
          throw error;
        });
      }
    }
    this.#streams.add(name);
    return name;
  }

  /** See commit.ts: pipelined, in order; resolves once JetStream stored every copy. */
  commit(batch: readonly StoredMessage[]): Promise<CommitOutcome[]> {
    return this.#committer.commit(batch);
  }

  /** See inbox-read.ts: a delivery that cannot be read is never skipped. */
  pending(
    agentId: string,
    afterSeq: number,
    limit: number,
    now: number,
  ): Promise<PendingDelivery[]> {
    const stream = this.subjects.inboxStream(agentId);
    const from = Math.max(afterSeq, this.#floors.floor(stream));
    return readInbox(this.#jsm, stream, from, limit, now);
  }

  /**
   * The last delivery stored in `agentId`'s inbox, unexpired at `now`
   * (`undefined` when there is none). After a reconnect the bus hands it to
   * the attached session: one it had, or the next, or a gap it catches up
   * from its last sequence (deliveries republished while the hub was cut off
   * never reached it).
   */
  async lastDelivery(agentId: string, now: number): Promise<PendingDelivery | undefined> {
    const stream = this.subjects.inboxStream(agentId);
    let last: number;
    try {
      last = (await this.#jsm.streams.info(stream)).state.last_seq;
    } catch {
      return undefined;
    }
    if (last < 1 || last <= this.#floors.floor(stream)) return undefined;
    return (await readInbox(this.#jsm, stream, last - 1, 1, now))[0];
  }

  /** Whether the store's NATS connection is up (false while lost or stale, until it reconnects). */
  get connected(): boolean {
    return this.#publisher.connected;
  }

  async confirm(agentId: string, seq: number): Promise<void> {
    const name = this.subjects.inboxStream(agentId);
    if (seq <= this.#floors.floor(name)) return;
    let last: number;
    try {
      last = (await this.#jsm.streams.info(name)).state.last_seq;
    } catch {
      return;
    }
    // Never past the last stored sequence: purging beyond it would move the stream's next sequence.
    this.#floors.confirm(name, Math.min(seq, last));
  }

  async saveAgent(profile: AgentProfile): Promise<void> {
    const key = agentToken(profile.id);
    const existing = await this.agent(profile.id);
    if (existing !== undefined && existing.publicKey !== profile.publicKey) {
      throw hubError("invalid_profile", `${profile.id} is registered with another key`);
    }
    if (existing === undefined) {
      try {
        await this.#agents.create(key, JSON.stringify(profile));
      } catch (error) {
        const raced = await this.agent(profile.id);
        if (raced === undefined) throw error;
        if (raced.publicKey !== profile.publicKey) {
          throw hubError("invalid_profile", `${profile.id} is registered with another key`);
        }
        if (raced.issuedAt >= profile.issuedAt) return;
        await this.#agents.put(key, JSON.stringify(profile));
      }
    } else if (existing.issuedAt < profile.issuedAt) {
      await this.#agents.put(key, JSON.stringify(profile));
    }
    await this.ensureInbox(profile.id);
  }

  async agent(agentId: string): Promise<AgentProfile | undefined> {
    const entry = await this.#agents.get(agentToken(agentId));
    if (entry === null || entry.operation !== "PUT") return undefined;
    const profile = parseProfile(entry.string());
    return profile?.id === agentId ? profile : undefined;
  }

  async agents(): Promise<AgentProfile[]> {
    const out: AgentProfile[] = [];
    for await (const key of await this.#agents.keys()) {
      const entry = await this.#agents.get(key);
      if (entry === null || entry.operation !== "PUT") continue;
      const profile = parseProfile(entry.string());
      if (profile !== undefined) out.push(profile);
    }
    return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async watchAgents(listener: (profile: AgentProfile) => void): Promise<void> {
    // Current values first, then updates: no gap after the hub's initial `agents()` load.
    const watch = await this.#agents.watch({ include: KvWatchInclude.LastValue });
    this.#watchers.push(watch);
    (async () => {
      for await (const entry of watch) {
        if (entry.operation !== "PUT") continue;
        const profile = parseProfile(entry.string());
        if (profile !== undefined) listener(profile);
      }
    })().catch(() => undefined);
  }

  /**
   * Calls `listener` with every event subscription (current ones first, then
   * changes by any hub): the subscription, or `removed` with the key of one
   * that went.
   */
  async watchSubscriptions(
    listener: (change: { key: string; subscription?: EventSubscription }) => void,
  ): Promise<void> {
    const watch = await this.#subs.watch({ include: KvWatchInclude.LastValue });
    this.#watchers.push(watch);
    (async () => {
      for await (const entry of watch) {
        if (entry.operation !== "PUT") {
          listener({ key: entry.key });
          continue;
        }
        const subscription = parseSubscription(entry.string());
        if (subscription !== undefined) listener({ key: entry.key, subscription });
      }
    })().catch(() => undefined);
  }

  async saveSubscription(subscription: EventSubscription): Promise<void> {
    await this.#subs.put(
      this.subjects.subscriptionKey(subscription.agentId, subscription.subscriptionId),
      JSON.stringify(subscription),
    );
  }

  async removeSubscription(agentId: string, subscriptionId: string): Promise<void> {
    await this.#subs.delete(this.subjects.subscriptionKey(agentId, subscriptionId));
  }

  async subscriptions(): Promise<EventSubscription[]> {
    return this.#readSubscriptions(">");
  }

  /** The event subscriptions of one agent. */
  subscriptionsOf(agentId: string): Promise<EventSubscription[]> {
    return this.#readSubscriptions(`${agentToken(agentId)}.*`, agentId);
  }

  async #readSubscriptions(filter: string, agentId?: string): Promise<EventSubscription[]> {
    const out: EventSubscription[] = [];
    for await (const key of await this.#subs.keys(filter)) {
      const entry = await this.#subs.get(key);
      if (entry === null || entry.operation !== "PUT") continue;
      const subscription = parseSubscription(entry.string());
      if (subscription === undefined) continue;
      if (agentId !== undefined && subscription.agentId !== agentId) continue;
      out.push(subscription);
    }
    return out;
  }

  /** Expired deliveries are skipped on read and aged out by each stream's `max_age`: nothing to sweep. */
  async sweep(_now: number): Promise<number> {
    return 0;
  }

  /** Stops the watchers, and drains the connection when it owns it. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // Pending purges go out first; a NATS server that does not answer delays the close by
    // NATS_PURGE_DELAY_MS at most (the confirmed deliveries then age out with the stream).
    if (!this.#nc.isClosed()) await settlesWithin(this.#floors.flush(), NATS_PURGE_DELAY_MS);
    this.#publisher.close();
    for (const watcher of this.#watchers.splice(0)) watcher.stop();
    if (this.#owns && !this.#nc.isClosed()) await this.#nc.drain().catch(() => undefined);
  }

  /** The connection this store uses. */
  get connection(): NatsConnection {
    return this.#nc;
  }
}
