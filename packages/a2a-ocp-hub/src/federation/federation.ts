/**
 * Hub-to-hub federation (`ocp-hub --federate FILE`, §13.1): links this hub
 * with the peer hubs of other organisations that its federate file lists,
 * and nothing else — a hub without the file accepts no hub link, and a link
 * from a hub id or key not in it is refused `federation_unknown_peer`.
 *
 * Build it before the hub, give the hub its {@link Federation.store}, then
 * {@link Federation.start} it with the listening hub:
 *
 * ```ts
 * const federation = new Federation({ config, dbPath });
 * const hub = await OCPHub.start({ identity, dbPath, store: federation.store });
 * await federation.start(hub);
 * ```
 *
 * See docs/federation.md for what crosses and how each side re-checks it.
 */
import type { AuditEntry, VisibilityPolicy, WireMessage } from "@ocp/a2a-ocp-messaging";
import { createDecompressor } from "@ocp/a2a-ocp-messaging/node";
import type {
  FederationLinkState,
  FederationListener,
  ObservableFederation,
} from "@ocp/a2a-ocp-messaging/observe";
import { CLOSE_CODES, type Connection, createWsServer, type WsServer } from "@ocp/transport-ws";
import { hubError } from "../errors.js";
import type { OCPHub } from "../hub.js";
import type { FederationClusterOptions } from "../nats/federation-share.js";
import { readablePayload } from "../readable.js";
import { SqliteStore } from "../sqlite-store.js";
import type { StoredMessage } from "../store.js";
import { verifyHello, welcome } from "./auth.js";
import { clusterOutbox, type JoinedCluster, joinCluster } from "./cluster-outbox.js";
import type { FederationConfig, FederationPeer } from "./config.js";
import { cardCrosses, withheldFrom } from "./crossing.js";
import { describe, describeHello } from "./describe.js";
import { Dialer } from "./dial.js";
import { EventRelay, subscriptionWithheld } from "./events.js";
import {
  type BudgetWindow,
  DEFAULT_FEDERATION_BUDGET,
  type FederationBudget,
  PeerLink,
} from "./link.js";
import { linkContext } from "./link-context.js";
import { type CrossingSeen, FederationObservers } from "./observer.js";
import { FederatedStore } from "./outbox.js";
import { forwardQuery, type QueryForwardContext } from "./query-forward.js";
import { FederationRegistry, type RemoteAgent } from "./registry.js";

export interface FederationOptions {
  /** The parsed federate file (config.ts). */
  config: FederationConfig;
  /** The hub's SQLite file: the outbox and the federation tables live in it (a file, not `:memory:`). */
  dbPath: string;
  /** A hub of a NATS cluster: the outbox is its JetStream store, one hub at a time holds each link (src/nats/federation-share.ts). */
  cluster?: FederationClusterOptions;
  synchronous?: "FULL" | "NORMAL";
  /** Lower a peer's budget per window (never 0 or Infinity); limits.ts defaults. */
  budget?: Partial<FederationBudget>;
  onError?: (error: unknown) => void;
}

export class Federation implements ObservableFederation {
  readonly store: FederatedStore;
  readonly registry: FederationRegistry;
  readonly config: FederationConfig;
  readonly #budget: FederationBudget;
  readonly #onError: (error: unknown) => void;
  readonly #links = new Map<string, PeerLink>();
  readonly #dialers: Dialer[] = [];
  readonly #local = new Set<string>();
  readonly #windows = new Map<string, BudgetWindow>();
  readonly #decompress = createDecompressor();
  readonly #observers: FederationObservers;
  #server: WsServer | undefined;
  #hub: OCPHub | undefined;
  #stopObserving: (() => void) | undefined;
  readonly #detach: Array<() => void> = [];
  #closing: Promise<void> | undefined;
  readonly #clusterOptions: FederationClusterOptions | undefined;
  #cluster: JoinedCluster | undefined;
  #events: EventRelay | undefined;

  constructor(options: FederationOptions) {
    if (options.dbPath === ":memory:" || options.dbPath === "") {
      throw hubError(
        "invalid_option",
        "federation keeps its outbox in the hub's SQLite file: give a file, not :memory:",
      );
    }
    this.config = options.config;
    this.#onError =
      options.onError ??
      ((error) => process.stderr.write(`ocp-hub: federation: ${String(error)}\n`));
    const budget = { ...DEFAULT_FEDERATION_BUDGET, ...options.budget };
    for (const [name, value] of Object.entries(budget)) {
      if (!Number.isSafeInteger(value) || value < 1) {
        throw hubError("invalid_option", `federation budget.${name} must be a positive integer`);
      }
    }
    this.#budget = budget;
    this.#observers = new FederationObservers(this.#decompress, this.#onError);
    this.#clusterOptions = options.cluster;
    const inner =
      options.cluster?.store ??
      new SqliteStore({
        path: options.dbPath,
        ...(options.synchronous === undefined ? {} : { synchronous: options.synchronous }),
      });
    this.registry = new FederationRegistry(options.dbPath);
    this.store = new FederatedStore(inner, this.registry, (profile) => this.allow(profile));
    // From the first commit on (before `start` too): what is queued for a peer waits for its link.
    this.store.useHooks({
      withheld: (stored, agent) => this.#withheld(stored, agent),
      agent: (profile) => this.#cluster?.agent(profile),
      committed: (crossed, withheld) => {
        for (const w of withheld) {
          const peer = this.registry.get(w.agent)?.peer ?? w.agent;
          this.#audit(
            {
              event: "refused",
              ...describe(w.stored),
              to: [w.agent],
              code: "federation_withheld",
              reason: w.reason,
            },
            { peer, direction: "out", source: w.stored.raw },
          );
        }
        const peers = new Set<string>();
        for (const c of crossed) {
          for (const peer of c.peers) peers.add(peer);
          const entry = { event: "delivered", ...describe(c.stored), to: c.peers } as const;
          this.#audit(entry);
          for (const peer of c.peers) {
            this.#observers.entry(entry, { peer, direction: "out", source: c.stored.raw });
          }
        }
        for (const peer of peers) this.#links.get(peer)?.pump();
      },
    });
  }

  /**
   * Whether an agent may register at this hub under federation: not one whose
   * id is under a peer's prefixes (or that a peer vouched for), which is that
   * organisation's. The hub applies it at every registration through
   * {@link store} (`HubStore.refuses`), whatever `allow` it was given.
   */
  readonly allow = (profile: { id: string }): boolean =>
    this.registry.get(profile.id) === undefined &&
    !this.config.peers.some((peer) => peer.agents.some((prefix) => profile.id.startsWith(prefix)));

  /** Where this hub accepts hub links (`listen` in the file), once started. */
  get url(): string | undefined {
    return this.#server?.url;
  }

  /** Each configured peer: whether its link is up, how many agents it vouched for. */
  links(): FederationLinkState[] {
    return this.config.peers.map((peer) => ({
      hubId: peer.hubId,
      open: this.#links.get(peer.hubId)?.open ?? false,
      agents: [...this.registry.all()].filter((a) => a.peer === peer.hubId).length,
    }));
  }

  /** Starts accepting and dialling hub links for `hub`, which must use {@link store}. */
  async start(hub: OCPHub): Promise<void> {
    if (hub.store !== this.store) {
      throw hubError(
        "federation_unsupported",
        "the hub must be built with federation.store (for a JetStream store, give the federation its cluster options)",
      );
    }
    const identity = hub.self.identity;
    for (const peer of this.config.peers) {
      if (peer.hubId === identity.id)
        throw hubError(
          "invalid_option",
          `the federate file lists this hub (${peer.hubId}) as its own peer`,
        );
    }
    this.#hub = hub;
    for (const profile of await this.store.inner.agents()) this.#local.add(profile.id);
    if (this.#clusterOptions !== undefined) {
      this.#cluster = await joinCluster(this.#clusterOptions, {
        config: this.config,
        registry: this.registry,
        store: this.store,
        local: this.#local,
        hubId: identity.id,
        links: this.#links,
        onError: this.#onError,
        notice: (text) => process.stderr.write(`ocp-hub: federation: ${text}\n`),
        dial: (peer) => (this.#closing === undefined ? this.#dialer(peer) : undefined),
      });
    }
    this.#stopObserving = hub.observe((event) => {
      if (event.kind !== "agent.registered") return;
      this.#local.add(event.agentId);
      this.store.inner.agent(event.agentId).then((profile) => {
        if (profile === undefined || !cardCrosses(profile)) return;
        for (const link of this.#links.values()) if (link.open) link.sendCards([profile]);
      }, this.#onError);
    });
    // Collective queries are transient broadcasts: a peer that opted in is attached to the
    // bus under its hub id, so it gets each one the hub hands to its connected agents.
    for (const peer of this.config.peers) {
      if (!peer.queries) continue;
      this.#detach.push(
        hub.bus.attach(peer.hubId, (delivery) => {
          if (delivery.kind === "transient")
            forwardQuery(this.#queryContext(), peer, delivery.bytes.toString("utf8"));
        }),
      );
    }
    const { registry, config, store } = this;
    this.#events = new EventRelay({
      bus: hub.bus,
      config,
      registry,
      store: store.inner,
      local: this.#local,
      policy: () => this.#policy(),
      decompress: this.#decompress,
      send: (peer, raw) => this.#links.get(peer)?.sendEvent(raw) === true,
      audit: (entry) => this.#audit(entry),
      onError: this.#onError,
    });
    await this.#events.start();
    const listen = this.config.listen;
    if (listen !== undefined) {
      this.#server = await createWsServer({
        host: listen.host,
        port: listen.port,
        allowedOrigins: [],
        ...(hub.options.transport?.maxPayloadBytes === undefined
          ? {}
          : { maxPayloadBytes: hub.options.transport.maxPayloadBytes }),
        authenticate: (announcement, nonce) => {
          const verified = verifyHello(announcement, nonce, this.config.peers);
          if ("refused" in verified) {
            const from = describeHello(announcement);
            this.#audit(
              {
                event: "refused",
                from,
                to: [identity.id],
                code: verified.refused.split(":")[0],
                reason: verified.refused,
              },
              { peer: from, direction: "in" },
            );
            return { refused: verified.refused, kind: "authentication" };
          }
          if (this.#cluster !== undefined && !this.#cluster.holds(verified.peer.hubId)) {
            const refused = `federation_standby: another hub of this cluster holds the link of ${verified.peer.hubId}`;
            return { refused, kind: "authentication" };
          }
          return {
            agentId: verified.peer.hubId,
            registration: { fedWelcome: welcome(identity, verified.challenge) },
          };
        },
      });
      this.#server.on("connection", (connection, info) => {
        const peer = this.config.peers.find((p) => p.hubId === info.agentId);
        if (peer !== undefined) this.#link(peer, connection, false);
      });
    }
    for (const peer of this.config.peers) {
      if (peer.url === undefined || this.#cluster !== undefined) continue;
      const dialer = this.#dialer(peer);
      this.#dialers.push(dialer);
      dialer.start();
    }
  }

  #dialer(peer: FederationPeer): Dialer {
    const identity = this.#hub!.self.identity;
    const hub = this.#hub!;
    return new Dialer(peer, identity, {
      onLink: (connection) => this.#link(peer, connection, true),
      onRefused: (reason) =>
        this.#audit(
          {
            event: "refused",
            from: peer.hubId,
            to: [identity.id],
            code: "federation_unknown_peer",
            reason,
          },
          { peer: peer.hubId, direction: "in" },
        ),
      ...(hub.options.transport?.maxPayloadBytes === undefined
        ? {}
        : { maxPayloadBytes: hub.options.transport.maxPayloadBytes }),
    });
  }

  /** Stops dialling and accepting and closes every link; call before `hub.close()`. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#stopObserving?.();
      for (const detach of this.#detach.splice(0)) detach();
      this.#events?.close();
      await this.#cluster?.close();
      await Promise.all(this.#dialers.map((d) => d.stop()));
      for (const link of this.#links.values()) link.close();
      await this.#server?.close(CLOSE_CODES.GOING_AWAY, "hub shutting down");
      this.registry.close();
    })();
    return this.#closing;
  }

  #policy(): VisibilityPolicy {
    return {
      teamOf: () => undefined,
      defaultVisibility: this.#hub?.options.defaultVisibility ?? "workspace",
    };
  }

  /** Calls `listener` with each link change and each crossing or refusal at the boundary (observer.ts). */
  observe(listener: FederationListener): () => void {
    return this.#observers.listen(listener);
  }

  #audit(entry: Omit<AuditEntry, "at">, seen?: CrossingSeen): void {
    try {
      this.#hub?.options.audit?.append({ at: Date.now(), ...entry });
    } catch (error) {
      this.#onError(error);
    }
    if (seen !== undefined) this.#observers.entry(entry, seen);
  }

  #queryContext(): QueryForwardContext {
    return {
      local: this.#local,
      store: this.store.inner,
      decompress: this.#decompress,
      policy: () => this.#policy(),
      send: (peer, raw) => this.#links.get(peer)?.sendQuery(raw) === true,
      audit: (entry, seen) => this.#audit(entry, seen),
      onError: this.#onError,
    };
  }

  /** Why `stored`, committed by this hub, may not reach `agent` of a peer organisation. */
  async #withheld(stored: StoredMessage, agent: RemoteAgent): Promise<string | undefined> {
    const peer = this.config.peers.find((p) => p.hubId === agent.peer);
    if (peer === undefined) return `${agent.peer} is no longer a peer`;
    const sender = await this.store.inner.agent(stored.sender);
    if (sender === undefined || !cardCrosses(sender)) {
      return `the card of ${stored.sender} is not public: other organisations cannot verify it`;
    }
    const wire = JSON.parse(stored.raw) as WireMessage; // Text this hub checked already.
    const unsubscribed = subscriptionWithheld(wire.type, peer);
    if (unsubscribed !== undefined) return unsubscribed;
    const readable = readablePayload(wire, this.#decompress);
    if ("refused" in readable) return readable.refused.message;
    return withheldFrom(wire, readable.payload, agent.profile.id, this.#policy(), peer.queries);
  }

  #link(peer: FederationPeer, connection: Connection, dialled: boolean): void {
    const hub = this.#hub;
    if (hub === undefined) return;
    this.#links.get(peer.hubId)?.close(CLOSE_CODES.NORMAL, "replaced by a new link");
    const parts = {
      store: this.store,
      registry: this.registry,
      local: this.#local,
      policy: () => this.#policy(),
      decompress: this.#decompress,
      budget: this.#budget,
      windows: this.#windows,
      onError: this.#onError,
      audit: (entry: Omit<AuditEntry, "at">, seen: CrossingSeen) => this.#audit(entry, seen),
      watch: (agentId: string) => this.#events?.watch(agentId),
      ...(this.#cluster === undefined
        ? {}
        : { outbox: (p: string) => clusterOutbox(this.store.inner, p, this.#onError) }),
    };
    const link = new PeerLink(peer, connection, linkContext(peer, hub, parts), dialled);
    this.#links.set(peer.hubId, link);
    this.#observers.link(peer.hubId, true);
    connection.once("close", () => {
      if (this.#links.get(peer.hubId) !== link) return;
      this.#links.delete(peer.hubId);
      this.#observers.link(peer.hubId, false);
    });
  }
}
