/**
 * {@link HubBus} on core NATS, shared by every hub of a workspace (see
 * `subjects.ts`). The hub an agent is attached to subscribes, for that agent,
 * to its live subject and to one subject per event-type pattern of its
 * subscriptions; each hub subscribes once to the workspace's broadcast
 * subject and hands a broadcast to its own attached agents. Publishing hubs
 * never look up where an agent is: NATS routes by subject.
 *
 * The bus carries no durability. A committed delivery is published live with
 * its sequence number; if it is lost (the agent was moving between hubs), the
 * session of the hub it reaches next reads it from the JetStream inbox.
 */
import { headers, type Msg, type NatsConnection, type Subscription } from "@nats-io/transport-node";
import type { EventPublishPayload, EventSubscription } from "@ocp/a2a-ocp-messaging";
import { isJsonObject, matchesFilters } from "@ocp/a2a-ocp-messaging/internal";
import { createDecompressor } from "@ocp/a2a-ocp-messaging/node";
import { CompressedMessageSchema, EventPublishPayloadSchema } from "@ocp/a2a-ocp-messaging/schemas";
import type {
  BusDelivery,
  BusSink,
  ClusterBroadcast,
  ClusterRouting,
  EventNotifier,
  HubBus,
} from "../bus.js";
import { shareBudgets } from "./budget-share.js";
import type { JetStreamStore } from "./jetstream-store.js";
import { NATS_PUBLISH_RETRY_MS, NATS_RESUME_ATTEMPTS } from "./limits.js";
import { liveDelivery } from "./live-delivery.js";
import {
  FROM_HEADER,
  ID_HEADER,
  PUBLISHED_AT_HEADER,
  SEQ_HEADER,
  type Subjects,
  TRACEPARENT_HEADER,
} from "./subjects.js";

export interface NatsBusOptions {
  connection: NatsConnection;
  subjects: Subjects;
  /**
   * Where event subscriptions are read from (watched, so an attaching agent's
   * are at hand), and whether an inbox stream republishes its deliveries.
   */
  store: Pick<JetStreamStore, "watchSubscriptions"> &
    Partial<Pick<JetStreamStore, "republishes" | "lastDelivery">>;
  onError?: (error: unknown) => void;
}

/** A publication's JSON and its readable event payload. */
interface ReadPublish {
  publish: Record<string, unknown>;
  event: EventPublishPayload;
}

interface Attached {
  sink: BusSink;
  live: Subscription;
  /**
   * NATS subscriptions per event subscription id, with what they route and
   * the id of the last event handed over for it (overlapping patterns of one
   * subscription deliver one event once).
   */
  events: Map<string, { fingerprint: string; subs: Subscription[]; lastEventId?: string }>;
  /** Id of the last raw publish handed over (an unreadable payload: no notification). */
  lastRawId?: string | undefined;
}

export class NatsBus implements HubBus {
  readonly cluster: ClusterRouting;
  readonly #nc: NatsConnection;
  readonly #subjects: Subjects;
  /** Every agent's event subscriptions, kept current by a watch of the shared bucket. */
  readonly #known = new Map<string, Map<string, EventSubscription>>();
  /** Bucket key → the subscription it holds (a deletion names only the key). */
  readonly #keys = new Map<string, { agentId: string; subscriptionId: string }>();
  readonly #onError: (error: unknown) => void;
  readonly #local = new Map<string, Attached>();
  readonly #broadcast: Subscription;
  readonly #decompress = createDecompressor();
  /** The hub's signed notifications (`useNotifier`); without, subscribers get the raw publish. */
  #notify: EventNotifier | undefined;
  readonly #republishes: ((agentId: string) => boolean) | undefined;
  /** Stops sharing budgets with the other hubs (`shareBudgets`). */
  #stopSharing: (() => void) | undefined;
  readonly #lastDelivery: JetStreamStore["lastDelivery"] | undefined;
  /** The publication read last (`#readPublishOnce`), by its exact bytes. */
  #lastPublish: { bytes: Buffer; read: ReadPublish | undefined } | undefined;

  constructor(options: NatsBusOptions) {
    this.#nc = options.connection;
    this.#subjects = options.subjects;
    // Deliveries republished while the connection was lost or stale never reached this hub.
    (async () => {
      for await (const status of options.connection.status()) {
        if (status.type === "reconnect") this.#resume();
      }
    })().catch(() => undefined);
    this.#onError = options.onError ?? (() => undefined);
    this.#republishes = options.store.republishes?.bind(options.store);
    this.#lastDelivery = options.store.lastDelivery?.bind(options.store);
    this.#broadcast = this.#nc.subscribe(this.#subjects.broadcast, {
      callback: (error, msg) => {
        if (error !== null) return this.#onError(error);
        const from = msg.headers?.get(FROM_HEADER);
        const bytes = Buffer.from(msg.data);
        for (const [agentId, attached] of this.#local) {
          if (agentId !== from) attached.sink({ kind: "transient", bytes });
        }
      },
    });
    this.cluster = {
      broadcast: (message) => this.#publishBroadcast(message),
      subscribed: async (subscription) => {
        this.#remember(subscription);
        await this.#nc.flush();
      },
      unsubscribed: async (agentId, subscriptionId) => {
        this.#forget(agentId, subscriptionId);
        await this.#nc.flush();
      },
      useNotifier: (notify) => {
        this.#notify = notify;
      },
      shareBudgets: (budgets) => {
        this.#stopSharing?.();
        this.#stopSharing = shareBudgets(this.#nc, this.#subjects.budgets, budgets, {
          onError: this.#onError,
        });
      },
    };
  }

  /** Creates a bus and starts watching the shared subscriptions. */
  static async open(options: NatsBusOptions): Promise<NatsBus> {
    const bus = new NatsBus(options);
    await options.store.watchSubscriptions((change) => bus.#onSubscriptionChange(change));
    return bus;
  }

  #onSubscriptionChange(change: { key: string; subscription?: EventSubscription }): void {
    const { subscription } = change;
    if (subscription === undefined) {
      const gone = this.#keys.get(change.key);
      if (gone === undefined) return;
      this.#keys.delete(change.key);
      this.#forget(gone.agentId, gone.subscriptionId);
      return;
    }
    this.#keys.set(change.key, subscription);
    this.#remember(subscription);
  }

  #remember(subscription: EventSubscription): void {
    let own = this.#known.get(subscription.agentId);
    if (own === undefined) {
      own = new Map();
      this.#known.set(subscription.agentId, own);
    }
    own.set(subscription.subscriptionId, subscription);
    const attached = this.#local.get(subscription.agentId);
    if (attached !== undefined) this.#subscribeEvents(subscription.agentId, attached, subscription);
  }

  #forget(agentId: string, subscriptionId: string): void {
    this.#known.get(agentId)?.delete(subscriptionId);
    const attached = this.#local.get(agentId);
    if (attached === undefined) return;
    for (const sub of attached.events.get(subscriptionId)?.subs ?? []) sub.unsubscribe();
    attached.events.delete(subscriptionId);
  }

  attach(agentId: string, sink: BusSink): () => void {
    this.#release(agentId);
    const attached: Attached = {
      sink,
      events: new Map(),
      live: this.#nc.subscribe(this.#subjects.live(agentId), {
        callback: (error, msg) => {
          if (error !== null) return this.#onError(error);
          sink(liveDelivery(msg));
        },
      }),
    };
    this.#local.set(agentId, attached);
    for (const subscription of this.#known.get(agentId)?.values() ?? []) {
      this.#subscribeEvents(agentId, attached, subscription);
    }
    return () => {
      if (this.#local.get(agentId) === attached) this.#release(agentId);
    };
  }

  /**
   * Publishes a transient delivery to the agent's live subject: NATS takes it
   * to whichever hub the agent is attached to. A durable one is already on
   * its way when the agent's inbox stream republishes what it stores to that
   * subject (jetstream-store.ts); otherwise (a stream of an older release) it
   * is published with its sequence number.
   */
  deliver(agentId: string, delivery: BusDelivery): boolean {
    const subject = this.#subjects.live(agentId);
    if (delivery.kind === "transient") {
      this.#nc.publish(subject, delivery.bytes);
    } else if (this.#republishes?.(agentId) !== true) {
      const h = headers();
      h.set(SEQ_HEADER, String(delivery.seq));
      h.set(PUBLISHED_AT_HEADER, String(Date.now()));
      const traceparent = delivery.trace?.traceparent;
      if (traceparent !== undefined) h.set(TRACEPARENT_HEADER, traceparent);
      this.#nc.publish(subject, delivery.raw, { headers: h });
    }
    return true;
  }

  /**
   * After a reconnect: hands each attached agent's session the last delivery
   * stored in its inbox. The session drops it (it had it), sends it (the
   * next one), or catches up from its last sequence through the store: the
   * durable deliveries resume where the agent is, nothing skipped, nothing
   * twice.
   */
  #resume(): void {
    const last = this.#lastDelivery;
    if (last === undefined) return;
    for (const [agentId, attached] of this.#local) {
      const nudge = async () => {
        for (let attempt = 1; ; attempt++) {
          try {
            return await last(agentId, Date.now());
          } catch (error) {
            if (attempt >= NATS_RESUME_ATTEMPTS) throw error;
            await new Promise((resolve) => setTimeout(resolve, NATS_PUBLISH_RETRY_MS).unref());
          }
        }
      };
      nudge().then((delivery) => {
        if (delivery === undefined || this.#local.get(agentId) !== attached) return;
        attached.sink({ kind: "durable", seq: delivery.seq, raw: delivery.raw });
      }, this.#onError);
    }
  }

  /** Attached to this hub (the cluster does not keep a global list: subjects route). */
  isAttached(agentId: string): boolean {
    return this.#local.has(agentId);
  }

  attached(): Iterable<string> {
    return this.#local.keys();
  }

  async close(): Promise<void> {
    this.#stopSharing?.();
    for (const agentId of [...this.#local.keys()]) this.#release(agentId);
    this.#broadcast.unsubscribe();
  }

  #release(agentId: string): void {
    const attached = this.#local.get(agentId);
    if (attached === undefined) return;
    this.#local.delete(agentId);
    attached.live.unsubscribe();
    for (const { subs } of attached.events.values()) for (const sub of subs) sub.unsubscribe();
  }

  /**
   * Routes `subscription`'s patterns to the attached agent. A replacement
   * subscribes first and unsubscribes the old subjects after, so no event
   * slips between (an overlap is delivered once: see `lastEventId`); the same
   * subscription seen again (the hub, then the bucket watch) changes nothing.
   */
  #subscribeEvents(agentId: string, attached: Attached, subscription: EventSubscription): void {
    const current = attached.events.get(subscription.subscriptionId);
    const fingerprint = JSON.stringify([subscription.eventTypes, subscription.filters ?? null]);
    if (current !== undefined && current.fingerprint === fingerprint) return;
    const subjects = new Set(subscription.eventTypes.map((p) => this.#subjects.eventPattern(p)));
    const subs = [...subjects].map((subject) =>
      this.#nc.subscribe(subject, {
        callback: (error, msg) => {
          if (error !== null) return this.#onError(error);
          this.#onEvent(agentId, attached, subscription, msg);
        },
      }),
    );
    attached.events.set(subscription.subscriptionId, {
      fingerprint,
      subs,
      ...(current?.lastEventId === undefined ? {} : { lastEventId: current.lastEventId }),
    });
    for (const sub of current?.subs ?? []) sub.unsubscribe();
  }

  /**
   * One event publication for one subscription of an attached agent: the
   * hub-signed §5.5.4 notification (as a single hub sends), or the raw
   * publish when the payload cannot be read (encrypted) or no hub signs.
   */
  #onEvent(agentId: string, attached: Attached, subscription: EventSubscription, msg: Msg): void {
    if (msg.headers?.get(FROM_HEADER) === agentId) return;
    const entry = attached.events.get(subscription.subscriptionId);
    if (entry === undefined) return; // Replaced or removed meanwhile.
    const id = msg.headers?.get(ID_HEADER);
    if (id !== undefined && id !== "" && id === entry.lastEventId) return;
    const needsPayload = subscription.filters !== undefined || this.#notify !== undefined;
    const read = needsPayload ? this.#readPublishOnce(msg) : undefined;
    if (subscription.filters !== undefined) {
      if (read === undefined || !matchesFilters(subscription.filters, read.event)) return;
    }
    if (id !== undefined && id !== "") entry.lastEventId = id;
    if (this.#notify === undefined || read === undefined) {
      // The raw publish goes to the agent once, whatever number of its subscriptions match.
      if (id !== undefined && id !== "" && id === attached.lastRawId) return;
      attached.lastRawId = id;
      attached.sink({ kind: "transient", bytes: Buffer.from(msg.data) });
      return;
    }
    const note = this.#notify(agentId, subscription.subscriptionId, read.publish, read.event);
    attached.sink({ kind: "transient", bytes: Buffer.from(note, "utf8") });
  }

  /**
   * {@link NatsBus.#readPublish}, once per publication: each matching
   * subscription of each agent attached here receives the same publication
   * on a NATS subscription of its own, and the last one read is reused for
   * the exact same bytes (never for other bytes, whatever their id).
   */
  #readPublishOnce(msg: Msg): ReadPublish | undefined {
    const last = this.#lastPublish;
    if (last?.bytes.equals(msg.data)) return last.read;
    const read = this.#readPublish(msg);
    this.#lastPublish = { bytes: Buffer.from(msg.data), read };
    return read;
  }

  /** A published `ocp.event.publish`: its JSON and its payload (inflated when compressed). */
  #readPublish(msg: Msg): ReadPublish | undefined {
    try {
      const publish: unknown = JSON.parse(msg.string());
      if (!isJsonObject(publish)) return undefined;
      let payload: unknown = publish["payload"];
      if (typeof publish["compressedPayload"] === "string") {
        const compressed = CompressedMessageSchema.safeParse(publish);
        const inflated = compressed.success ? this.#decompress(compressed.data) : undefined;
        payload = inflated?.ok === true ? inflated.value.payload : undefined;
      }
      const event = EventPublishPayloadSchema.safeParse(payload);
      return event.success ? { publish, event: event.data } : undefined;
    } catch (error) {
      this.#onError(error);
      return undefined;
    }
  }

  #publishBroadcast(message: ClusterBroadcast): Promise<void> {
    const h = headers();
    h.set(FROM_HEADER, message.from);
    const eventType =
      message.type === "ocp.event.publish" && isJsonObject(message.payload)
        ? message.payload["eventType"]
        : undefined;
    let subject = this.#subjects.broadcast;
    if (typeof eventType === "string") {
      subject = this.#subjects.event(eventType);
      h.set(ID_HEADER, message.id);
    }
    this.#nc.publish(subject, message.bytes, { headers: h });
    return Promise.resolve();
  }
}
