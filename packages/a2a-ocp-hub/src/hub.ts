/**
 * The hub (§6, §8): agents connect over `@ocp/transport-ws`, announce
 * themselves with a signed profile over the connection's nonce, and exchange
 * signed messages that the hub checks (sender, signature, freshness, replay,
 * rate), routes (direct, multicast, broadcast, event subscriptions, §8.5
 * visibility) and, for durable ones, commits before acknowledging. It
 * forwards the exact text it received (docs/how-it-works.md).
 */

import type { AgentProfile, VisibilityPolicy, WireMessage } from "@ocp/a2a-ocp-messaging";
import { isHubFrame, profilePublicKey } from "@ocp/a2a-ocp-messaging/internal";
import { createDecompressor, nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import type { HubListener, HubStats, ObservableHub } from "@ocp/a2a-ocp-messaging/observe";
import type { Connection, RegisteredInfo, WsServer } from "@ocp/transport-ws";
import { CLOSE_CODES, createWsServer } from "@ocp/transport-ws";
import { CommitQueue } from "./acks.js";
import { type Announced, admit, admittedTeams, allowList } from "./admission.js";
import { pacerFor, RecipientLimits } from "./agent-limits.js";
import { AgentBudgets } from "./budget.js";
import type { HubBus } from "./bus.js";
import { checkInbound, type HubCheckOptions, hubStages, mustVerify } from "./check.js";
import { refusedWhileClosing } from "./closing.js";
import { learnProfile, profileOf } from "./cluster.js";
import {
  type AckInit,
  ackFrame,
  HubControlHandler,
  refusedOverBudget,
  rejectFrame,
} from "./control.js";
import { findCards, lookupCard } from "./discovery.js";
import { type DispatchContext, dispatch } from "./dispatch.js";
import { HubSelf, unconfirmedFeature } from "./hub-self.js";
import { HUB_SWEEP_INTERVAL_MS } from "./limits.js";
import { MemoryBus } from "./memory-bus.js";
import { HubNegotiation } from "./negotiation.js";
import { HubObservers } from "./observe.js";
import { DEFAULT_HUB_DB_PATH, type OCPHubOptions } from "./options.js";
import { readablePayload } from "./readable.js";
import { checkPayloadRules } from "./sealed.js";
import { AgentSession } from "./session.js";
import { SqliteStore } from "./sqlite-store.js";
import { assertRetention, type HubStore } from "./store.js";
import { type ApplyContext, holdSubscription, planSubscription } from "./subscription-messages.js";
import { SubscriptionTable } from "./subscriptions.js";
import { HubTelemetry } from "./telemetry.js";

interface Known {
  profile: AgentProfile;
  key: Uint8Array;
}

export class OCPHub implements ObservableHub {
  readonly options: Readonly<OCPHubOptions>;
  readonly store: HubStore;
  readonly bus: HubBus;
  readonly subscriptions = new SubscriptionTable();
  /** The hub's own identity and the messages it signs (see hub-self.ts). */
  readonly self: HubSelf;
  readonly #known = new Map<string, Known>();
  readonly #allowed: ReturnType<typeof allowList>;
  /** Every agent's budgets (discovery, lookup, confirmations, refusals), by agent id. */
  readonly #budgets = new AgentBudgets();
  readonly #sessions = new Map<string, AgentSession>();
  readonly #lastSeqs = new Map<string, Announced>();
  readonly #check: HubCheckOptions;
  readonly #control: HubControlHandler;
  readonly #decompress = createDecompressor();
  readonly #now: () => number;
  readonly #onError: (error: unknown) => void;
  #server: WsServer | undefined;
  #sweep: NodeJS.Timeout | undefined;
  readonly #commits: CommitQueue;
  #closing: Promise<void> | undefined;
  readonly #counts = { accepted: 0, rejected: 0, delivered: 0 };
  readonly #rejectedByCode = new Map<string, number>();
  readonly #observers: HubObservers;
  readonly #telemetry: HubTelemetry;
  readonly #limits = new RecipientLimits(this.#known, () => this.#now());
  readonly #subscriptionContext: ApplyContext;
  readonly #dispatch: DispatchContext;
  readonly #negotiation: HubNegotiation;
  readonly #mustVerify = (wire: WireMessage) => mustVerify(this.options, wire);

  /** Creates a hub; nothing listens until {@link listen}. */
  constructor(options: OCPHubOptions = {}) {
    this.options = options;
    this.self = new HubSelf(options);
    this.#telemetry = new HubTelemetry(this, options.tracing);
    this.#now = options.now ?? Date.now;
    this.#onError =
      options.onError ?? ((error) => process.stderr.write(`ocp-hub: ${String(error)}\n`));
    const { audit } = options;
    this.#observers = new HubObservers({ now: this.#now, onError: this.#onError, audit });
    this.store =
      options.store ??
      new SqliteStore({
        path: options.dbPath ?? DEFAULT_HUB_DB_PATH,
        ...(options.synchronous === undefined ? {} : { synchronous: options.synchronous }),
      });
    this.bus = options.bus ?? new MemoryBus();
    this.#allowed = allowList(options.allowedProfiles);
    this.bus.cluster?.useNotifier?.((...args) => this.self.notification(...args));
    this.bus.cluster?.shareBudgets?.(this.#budgets); // Budgets per agent, cluster-wide.
    const { subscriptions, store, bus } = this;
    this.#subscriptionContext = {
      table: subscriptions,
      store,
      cluster: bus.cluster,
      onError: this.#onError,
    };
    this.#check = {
      stages: hubStages(options, this.#now),
      ed25519: nativeEd25519,
      keyOf: (agentId) => this.#known.get(agentId)?.key,
    };
    assertRetention(this.store, this.#check.stages.maxClockSkewMs);
    this.#commits = new CommitQueue(this.store, {
      deliver: (agentId, delivery) => this.bus.deliver(agentId, delivery),
      ack: (item, outcome) =>
        this.#ack(item.sender, {
          id: outcome.id,
          durable: true,
          recipients: outcome.seqs.length,
          excluded: item.excluded,
          expiresAt: item.stored.expiresAt,
        }),
      reject: (item, code, message) =>
        this.#reject(item.sender, undefined, code, message, undefined, item.stored.id),
      onError: this.#onError,
    });
    this.#control = new HubControlHandler({
      store: this.store,
      // A card hidden from the requester answers as an unknown id (discovery.ts).
      lookup: (from, agentId) =>
        agentId === this.self.id
          ? { profile: this.self.profile }
          : lookupCard(profileOf(this.#known, this.store, agentId), from, () => this.#policy()),
      discover: (from, query) => findCards(this.#known.values(), from, query, this.#policy()),
      budgets: this.#budgets,
      now: this.#now,
      onError: this.#onError,
    });
    const ack = (session: AgentSession, init: AckInit) => this.#ack(session, init);
    const reject = this.#reject.bind(this);
    const counted = () => void this.#counts.accepted++;
    this.#dispatch = {
      self: this.self,
      bus,
      subscriptions,
      commits: this.#commits,
      limits: this.#limits,
      known: () => this.#known.keys(),
      policy: () => this.#policy(),
      accepted: (wire, payload, verified, routed) => {
        counted();
        this.#observers.accepted(wire, payload, verified, routed);
      },
      ack,
      reject,
      onError: this.#onError,
      telemetry: this.#telemetry,
    };
    this.#negotiation = new HubNegotiation({
      self: this.self,
      overBudget: (session, kind) => this.#control.overBudget(session, kind),
      accepted: (announce) => {
        counted();
        this.#observers.audit?.accepted(announce);
      },
      ack,
      reject,
    });
  }

  /** Creates a hub and starts listening. */
  static async start(options: OCPHubOptions = {}): Promise<OCPHub> {
    const hub = new OCPHub(options);
    await hub.listen();
    return hub;
  }

  /** Loads agents and subscriptions from the store, then listens; resolves with the URL. */
  async listen(): Promise<string> {
    if (this.#server !== undefined) return this.url;
    for (const profile of await this.store.agents()) {
      this.#known.set(profile.id, { profile, key: profilePublicKey(profile) });
    }
    for (const subscription of await this.store.subscriptions()) {
      this.subscriptions.add(subscription, Number.MAX_SAFE_INTEGER);
    }
    // Cluster (a store shared by several hubs): learn agents registered elsewhere.
    await this.store.watchAgents?.((profile) => learnProfile(this.#known, profile));
    this.#server = await createWsServer({
      ...this.options.transport,
      host: this.options.host ?? "127.0.0.1",
      port: this.options.port ?? 0,
      ...(this.options.path === undefined ? {} : { path: this.options.path }),
      allowedOrigins: this.options.allowedOrigins ?? [],
      ackPayload: this.self.describe(),
      authenticate: (announcement, nonce, context) =>
        this.#authenticate(announcement, nonce, context.connectionId),
    });
    this.#server.on("connection", (connection, info) => this.#register(connection, info));
    const interval = this.options.sweepIntervalMs ?? HUB_SWEEP_INTERVAL_MS;
    this.#sweep = setInterval(() => {
      this.store.sweep(this.#now(), this.#observers.audit?.expired).catch(this.#onError);
    }, interval);
    this.#sweep.unref();
    return this.url;
  }

  /** `ws://host:port/path`. */
  get url(): string {
    if (this.#server === undefined) throw new Error("the hub is not listening");
    return this.#server.url;
  }

  get port(): number {
    if (this.#server === undefined) throw new Error("the hub is not listening");
    return this.#server.port;
  }

  /** The agents connected now. */
  connectedAgents(): string[] {
    return [...this.#sessions.keys()];
  }

  /** Calls `listener` with each {@link HubEvent} (observe.ts); returns the function that stops. */
  observe(listener: HubListener): () => void {
    return this.#observers.add(listener);
  }

  stats(): HubStats {
    const server = this.#server?.stats();
    return {
      connected: this.#sessions.size,
      known: this.#known.size,
      subscriptions: this.subscriptions.size,
      ...this.#counts,
      rejectedByCode: Object.fromEntries(this.#rejectedByCode),
      committed: this.#commits.committed,
      slowConsumerCloses: server?.slowConsumerCloses ?? 0,
      peakOutboundBytes: server?.peakOutboundBytes ?? 0,
      storeConnected: this.store.connected ?? true,
    };
  }

  /** Closes every connection (1001), commits what was accepted, and closes the store. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      if (this.#sweep !== undefined) clearInterval(this.#sweep);
      await this.#server?.close(CLOSE_CODES.GOING_AWAY, "hub shutting down");
      await this.#commits.drain();
      await this.bus.close();
      await this.store.close();
      await this.#observers.audit?.close();
    })();
    return this.#closing;
  }

  async #authenticate(announcement: unknown, nonce: string, connectionId: string) {
    const admitted = await admit(announcement, nonce, {
      known: this.#known,
      store: this.store,
      allowed: this.#allowed,
      allow: this.options.allow,
      hubId: this.self.id,
    });
    if ("refused" in admitted) return admitted;
    this.#lastSeqs.set(connectionId, admitted);
    const registration = this.#telemetry.registration(this.self.describe(), admitted.trace);
    return { agentId: admitted.agentId, registration };
  }

  #register(connection: Connection, info: RegisteredInfo): void {
    const agentId = info.agentId;
    const { lastSeq, priorityOrder, trace = false } = this.#lastSeqs.get(connection.id) ?? {};
    this.#lastSeqs.delete(connection.id);
    this.#sessions.get(agentId)?.connection.close(CLOSE_CODES.NORMAL, "replaced by a new one");
    const session = new AgentSession({
      agentId,
      connection,
      store: this.store,
      afterSeq: lastSeq ?? 0,
      priorityOrder,
      now: this.#now,
      onError: this.#onError,
      audit: this.#observers.audit,
      pacer: pacerFor(this.#known.get(agentId)?.profile, this.#now),
      telemetry: this.#telemetry.session(trace),
    });
    this.#sessions.set(agentId, session);
    this.#observers.agent(agentId, true);
    const detach = this.bus.attach(agentId, (delivery) => {
      this.#counts.delivered += 1;
      session.deliver(delivery);
    });
    connection.on("message", (raw) => this.#onMessage(session, raw));
    connection.once("close", () => {
      detach();
      if (this.#sessions.get(agentId) !== session) return; // Replaced by a new connection.
      this.#sessions.delete(agentId);
      this.#observers.agent(agentId, false);
    });
    const start = lastSeq ? this.store.confirm(agentId, lastSeq) : Promise.resolve();
    start.then(() => session.catchUp(), this.#onError);
  }

  #onMessage(session: AgentSession, frame: string): void {
    if (refusedWhileClosing(this.#closing, frame, this.#reject.bind(this, session, frame))) return;
    const arrived = this.#telemetry.arrive(frame, (c, m) => this.#reject(session, frame, c, m));
    if (arrived === undefined) return; // An `ocp.hub.send` frame that cannot be read: refused.
    const { raw, arrival } = arrived;
    if (isHubFrame(raw)) {
      this.#control.handle(session, raw);
      return;
    }
    const checked = checkInbound(raw, session.agentId, this.#mustVerify, this.#check);
    if (!checked.ok) {
      const { code, message, details } = checked.error;
      if (code === "invalid_message" && this.#negotiation.bare(session, raw)) return;
      this.#reject(session, raw, code, message, details);
      return;
    }
    const { wire, json, deadline, verified } = checked.value;
    this.#telemetry.verified(arrival, wire);
    const readable = readablePayload(wire, this.#decompress);
    if ("refused" in readable) {
      const { code, message } = readable.refused;
      this.#reject(session, raw, code, message, undefined, wire.id);
      return;
    }
    const { payload } = readable;
    const authored = checkPayloadRules(wire, payload, this.#check, () => this.#policy());
    if (!authored.ok) {
      const { code, message, details } = authored.error;
      this.#reject(session, raw, code, message, details, wire.id);
      return;
    }
    // Every check first; what the message changes (a subscription, an open query) is
    // applied only once it is accepted (durable: committed), so a refusal leaves no trace.
    const planned = planSubscription(wire.type, session.agentId, payload);
    if (!planned.ok) {
      this.#reject(session, raw, planned.code, planned.message, undefined, wire.id);
      return;
    }
    const unconfirmed = unconfirmedFeature(session.features, wire.type);
    if (unconfirmed !== undefined) {
      const { message, details } = unconfirmed;
      this.#reject(session, raw, "feature_not_negotiated", message, details, wire.id);
      return;
    }
    if (wire.to === this.self.id) {
      this.#negotiation.toHub(session, wire, payload, deadline);
      return;
    }
    const pending = holdSubscription(planned.change, this.#subscriptionContext);
    if ("refused" in pending) {
      this.#reject(session, raw, "rate_limited", pending.refused, undefined, wire.id);
      return;
    }
    dispatch({ session, wire, json, payload, raw, deadline, verified, pending }, this.#dispatch);
  }

  /** §8.5 visibility (messages, §7.3 cards); teams from the operator's allow-list only (admission.ts). */
  #policy(): VisibilityPolicy {
    const teamOf = admittedTeams(this.#allowed);
    const { defaultVisibility = "workspace" } = this.options;
    return { teamOf: this.options.teamOf ?? teamOf, defaultVisibility };
  }

  #ack(session: AgentSession, ack: AckInit): void {
    this.#telemetry.settle(ack.id);
    if (session.open) session.connection.send(ackFrame(ack));
  }

  #reject(
    session: AgentSession,
    raw: string | undefined,
    code: string,
    message: string,
    details?: Record<string, unknown>,
    id?: string,
  ): void {
    this.#counts.rejected += 1;
    this.#telemetry.settle(id, code);
    this.#rejectedByCode.set(code, (this.#rejectedByCode.get(code) ?? 0) + 1);
    // Refused traffic spends the agent's budget (budget.ts); the hub's own failures do not.
    const audit = (why: string) =>
      this.#observers.refused(session.agentId, "rate_limited", why, id);
    if (refusedOverBudget(this.#budgets, session, code, { now: this.#now(), raw, id, audit }))
      return;
    this.#observers.refused(session.agentId, code, message, id, raw);
    // Not kept: a resend of it must not be refused as a replay of a message the hub never stored.
    if (code === "store_failed" && id !== undefined) this.#check.stages.replay.forget(id);
    if (!session.open) return;
    session.connection.send(rejectFrame(raw, code, message, details, id));
  }
}
