import type { FindAgentsQuery, FindAgentsResult } from "@ocp/a2a-ocp-client";
import type {
  AwarenessBeaconPayload,
  AwarenessQueryPayload,
  AwarenessResponsePayload,
  EventPublishPayload,
  KeyLookup,
  KnowledgeEdge,
  KnowledgeNode,
  KnowledgeSubscribePayload,
  VisibilityPolicy,
} from "@ocp/a2a-ocp-messaging";
import {
  BROADCAST,
  type KnownMessageType,
  type MessageOf,
  maySee,
  type PayloadInit,
  type PlainMessage,
} from "@ocp/a2a-ocp-messaging";
import { signAuthorship } from "@ocp/a2a-ocp-messaging/internal";
import {
  type CollectiveQueryOptions,
  type CollectiveResult,
  CollectiveService,
} from "./agent-collective.js";
import { ConsensusService, type ProposeOptions } from "./agent-consensus.js";
import { EventService } from "./agent-events.js";
import { KnowledgeService } from "./agent-knowledge.js";
import { type SyncOptions, type SyncReport, SyncService } from "./agent-sync.js";
import {
  DEFAULT_VISIBILITY_POLICY,
  type OCPAgentEvents,
  type OCPAgentOptions,
} from "./agent-types.js";
import { PresenceTable } from "./awareness.js";
import { MemoryConsensusStore, type VoteMessage } from "./consensus.js";
import type { AgentContext } from "./context.js";
import { Emitter, Waiters } from "./emitter.js";
import { agentError } from "./errors.js";
import type { ApplyResult, KnowledgeGraph } from "./graph.js";
import { SYNC_STEP_TIMEOUT_MS } from "./limits.js";
import type { AgentLink } from "./link.js";
import { MemoryGraph } from "./memory-graph.js";
import type { VersionedItem } from "./merge.js";
import type { MessageReceipt } from "./receipt.js";
import { replyAddress } from "./reply.js";
import { type Outbound, type SealingSendOptions, sealing } from "./sealing.js";
import { ExtractiveSynthesizer } from "./synthesis.js";
import { isSealed, type Opener } from "./unsealing.js";

/**
 * An agent of an OCP team (§5): what a developer embeds in an agent. It signs everything it
 * sends with its identity, keeps a local knowledge graph, streams knowledge to its subscribers,
 * merges what it receives by version vectors, syncs deltas, answers and asks collective queries,
 * proposes and votes, keeps a presence table, and publishes and subscribes to events.
 */
export class OCPAgent extends Emitter<OCPAgentEvents> {
  readonly id: string;
  readonly graph: KnowledgeGraph;
  readonly presence: PresenceTable;
  /** §8.5 the policy `maySee` applies to every node this agent sends or answers with. */
  readonly visibility: VisibilityPolicy;
  /** An agent's public key, found as this agent verifies (its link's: the hub's verified profiles). */
  readonly lookupKey: KeyLookup;
  readonly #link: AgentLink;
  readonly #ctx: AgentContext;
  readonly #knowledge: KnowledgeService;
  readonly #sync: SyncService;
  readonly #consensus: ConsensusService;
  readonly #collective: CollectiveService;
  readonly #events: EventService;
  readonly #outbound: Outbound;
  readonly #opener: Opener;
  readonly #awarenessWaiters = new Waiters<AwarenessResponsePayload>();
  #off: (() => void) | undefined;
  #chain: Promise<void> = Promise.resolve();

  constructor(options: OCPAgentOptions) {
    super();
    this.id = options.identity.id;
    this.#link = options.link;
    this.graph = options.graph ?? new MemoryGraph(this.id);
    const now = options.now ?? Date.now;
    this.visibility = options.visibility ?? options.link.visibility ?? DEFAULT_VISIBILITY_POLICY;
    this.lookupKey = options.link.lookupKey;
    this.presence = new PresenceTable(options.presenceStaleMs, now);
    ({ outbound: this.#outbound, opener: this.#opener } = sealing(options, now));
    this.#ctx = {
      id: this.id,
      graph: this.graph,
      lookupKey: options.link.lookupKey,
      signItem: (item) => signAuthorship(item, this.id, options.identity.secretKey),
      now,
      maySee: (node, recipient) => maySee(node, recipient, this.visibility),
      send: (type, to, payload, options) => this.#outbound.send(type, to, payload, options),
    };
    this.#knowledge = new KnowledgeService(this.#ctx, {
      knowledge: (nodes, from, receipt) => this.emit("knowledge", nodes, from, receipt),
      deleted: (ids, from) => this.emit("deleted", ids, from),
      conflict: (conflict, by) => this.emit("conflict", conflict, by),
      edgeConflict: (conflict, by) => this.emit("edgeConflict", conflict, by),
      refused: (refusal) => this.emit("refused", refusal),
    });
    this.#sync = new SyncService(this.#ctx, {
      applied: (result, from, receipt) => this.#knowledge.applied(result, from, receipt),
      isConflicted: (id) => this.#knowledge.isConflicted(id),
      conflictReport: (p, from, receipt, at) => this.#knowledge.reported(p, from, receipt, at),
      awarenessEntries: () => this.presence.entries(),
      mergeAwareness: (agents) => {
        for (const a of agents)
          if (a.agentId !== this.id) this.presence.beacon(a.agentId, a.awareness);
      },
    });
    this.#consensus = new ConsensusService(
      this.#ctx,
      options.consensusStore ?? new MemoryConsensusStore(),
      {
        proposal: (p, from) => this.emit("proposal", p, from),
        vote: (v) => this.emit("vote", v),
        voteRejected: (v, r) => this.emit("voteRejected", v, r),
        decision: (d) => this.emit("consensus", d),
      },
    );
    this.#events = new EventService(this.#ctx, (e, id) => this.emit("event", e, id));
    this.#collective = new CollectiveService(
      this.#ctx,
      options.synthesizer ?? new ExtractiveSynthesizer(),
      options.answerQueries ?? true,
      (s, from) => this.emit("synthesis", s, from),
    );
  }

  /** Starts handling messages and resumes persisted proposals. */
  start(): this {
    if (this.#off === undefined) {
      // One message at a time, in arrival order: merges and tallies never interleave.
      const offRefused = this.#link.onRefused?.((error) => this.emit("error", error, undefined));
      const offMessages = this.#link.onMessage((message) => {
        this.#chain = this.#chain.then(() => this.#dispatch(message));
      });
      this.#off = () => [offMessages(), offRefused?.()];
      this.#consensus.resume();
    }
    return this;
  }

  /** Stops timers and pending waits, closes the link and the graph. */
  async close(): Promise<void> {
    this.#off?.();
    this.#consensus.close();
    this.#knowledge.close();
    this.#collective.close();
    const closed = agentError("not_connected", "the agent closed");
    this.#sync.close(closed);
    this.#awarenessWaiters.rejectAll(closed);
    await this.#chain;
    await this.#link.close();
    this.graph.close();
  }

  /** §7.3: the verified cards of the agents matching `query` that this agent may see (through its hub). */
  findAgents(query: FindAgentsQuery = {}): Promise<FindAgentsResult> {
    if (this.#link.findAgents === undefined) {
      return Promise.reject(agentError("discovery_unavailable", "this link cannot search agents"));
    }
    return this.#link.findAgents(query);
  }

  // Knowledge (§5.1)

  /** Adds or edits nodes (and edges) locally and streams them to every subscriber whose filters match. */
  streamKnowledge(
    nodes: readonly KnowledgeNode[],
    edges: readonly KnowledgeEdge[] = [],
  ): Promise<void> {
    return this.#knowledge.stream(nodes, edges);
  }
  /** Merges knowledge `from` sent over another authenticated channel (an A2A task), as its stream would be. */
  receiveKnowledge(
    nodes: readonly KnowledgeNode[],
    edges: readonly KnowledgeEdge[],
    from: string,
    receipt: MessageReceipt,
  ): Promise<ApplyResult> {
    return this.#knowledge.receive(nodes, edges, from, receipt);
  }
  /** Deletes nodes or edges (tombstones) and tells the subscribers. */
  deleteKnowledge(ids: { nodes?: readonly string[]; edges?: readonly string[] }): Promise<void> {
    return this.#knowledge.delete(ids.nodes ?? [], ids.edges ?? []);
  }
  /** Subscribes to `publisher`'s knowledge; returns the subscription (= stream) id. */
  subscribe(
    publisher: string,
    request: Omit<KnowledgeSubscribePayload, "subscriptionId"> & { subscriptionId?: string },
  ): Promise<string> {
    return this.#knowledge.subscribe(publisher, request);
  }
  unsubscribe(publisher: string, subscriptionId: string): Promise<void> {
    return this.#knowledge.unsubscribe(publisher, subscriptionId);
  }
  /** §12.4 pause, resume or cancel a stream `publisher` sends us. */
  controlStream(
    publisher: string,
    streamId: string,
    action: "pause" | "resume" | "cancel",
  ): Promise<void> {
    return this.#knowledge.control(publisher, streamId, action);
  }
  /** Delta sync of knowledge with `peer` (§5.1.4). */
  syncKnowledge(
    peer: string,
    filters?: { domains?: string[]; updatedAfter?: string },
  ): Promise<SyncReport> {
    return this.#sync.syncKnowledge(peer, filters);
  }
  /** The generic sync exchange (§5.6) for `knowledge` and/or `awareness`. */
  sync(
    peer: string,
    scope?: readonly ("knowledge" | "awareness")[],
    options?: SyncOptions,
  ): Promise<SyncReport> {
    return this.#sync.sync(peer, scope, options);
  }
  /** A node of the local graph (undefined when absent or deleted). */
  node(id: string): KnowledgeNode | undefined {
    const node = this.graph.getNode(id);
    return node === undefined || node.ocpDeleted === true ? undefined : node;
  }

  // Collective (§5.2)

  /** Asks every agent, collects responses and synthesises them. */
  collectiveQuery(query: string, options: CollectiveQueryOptions = {}): Promise<CollectiveResult> {
    return this.#collective.query(query, options);
  }

  // Consensus (§5.3)

  propose(options: ProposeOptions): Promise<string> {
    return this.#consensus.propose(options);
  }
  vote(
    proposalId: string,
    vote: "approve" | "reject" | "abstain",
    reasoning?: string,
  ): Promise<VoteMessage> {
    return this.#consensus.vote(proposalId, vote, reasoning);
  }

  // Awareness (§5.4)

  /** Broadcasts this agent's status and records it in its own presence table. */
  async beacon(awareness: AwarenessBeaconPayload): Promise<void> {
    this.presence.beacon(this.id, awareness);
    await this.#outbound.send("ocp.awareness.beacon", BROADCAST, awareness);
  }
  async updateAwareness(changes: Partial<AwarenessBeaconPayload>): Promise<void> {
    this.presence.update(this.id, { changes });
    await this.#outbound.send("ocp.awareness.update", BROADCAST, { changes });
  }
  /** Who is doing what: from the local presence table, or asked of `peer` when given. */
  async queryAwareness(
    filters?: AwarenessQueryPayload["filters"],
    peer?: string,
  ): Promise<AwarenessResponsePayload["agents"]> {
    if (peer === undefined) return this.presence.query(filters);
    const queryId = `aq-${globalThis.crypto.randomUUID()}`;
    const answer = this.#awarenessWaiters.wait(queryId, SYNC_STEP_TIMEOUT_MS, () =>
      agentError("sync_failed", `no awareness response from ${peer}`),
    );
    try {
      await this.#outbound.send("ocp.awareness.query", peer, {
        queryId,
        ...(filters === undefined ? {} : { filters }),
      });
    } catch (error) {
      // Nothing was sent: withdraw the wait so it cannot reject later, unobserved.
      this.#awarenessWaiters.reject(queryId, error);
      await answer.catch(() => undefined);
      throw error;
    }
    return (await answer).agents;
  }

  // Events (§5.5)

  /** Publishes an event to the team; `options.source`: who raised it, when relayed for another (this agent by default). */
  publishEvent(
    eventType: string,
    eventData: unknown,
    severity?: EventPublishPayload["severity"],
    options: { source?: string } = {},
  ): Promise<EventPublishPayload> {
    return this.#events.publish(eventType, eventData, severity, options.source);
  }
  /** Subscribes to event types (wildcards `*`, `**`) with filters; the hub routes, `handler` and `event` fire. */
  subscribeEvents(
    eventTypes: string[],
    filters?: Record<string, unknown>,
    handler?: (event: EventPublishPayload) => void,
  ): Promise<string> {
    return this.#events.subscribe(eventTypes, filters, handler);
  }
  unsubscribeEvents(subscriptionId: string): Promise<void> {
    return this.#events.unsubscribe(subscriptionId);
  }

  /** Sends one message this agent builds and signs; `sensitive` seals it to its named recipients (§8.4). */
  send<T extends KnownMessageType>(
    type: T,
    to: string | string[],
    payload: PayloadInit<T>,
    options: SealingSendOptions = {},
  ): Promise<MessageOf<T>> {
    return this.#outbound.send(type, to, payload, options);
  }

  async #dispatch(message: PlainMessage): Promise<void> {
    try {
      if (message.from === this.id) return;
      await this.#route(isSealed(message) ? await this.#opener.open(message) : message);
    } catch (error) {
      this.emit("error", error, message);
    }
  }

  async #route(m: PlainMessage): Promise<void> {
    switch (m.type) {
      case "ocp.knowledge.stream":
      case "ocp.knowledge.update":
      case "ocp.knowledge.subscribe":
      case "ocp.knowledge.unsubscribe":
      case "ocp.knowledge.control":
      case "ocp.knowledge.conflict":
        return this.#knowledge.handle(m);
      case "ocp.knowledge.sync.request":
      case "ocp.knowledge.sync.response":
      case "ocp.sync.request":
      case "ocp.sync.offer":
      case "ocp.sync.accept":
      case "ocp.sync.complete":
      case "ocp.sync.conflict":
        await this.#sync.handle(m);
        return;
      case "ocp.collective.query":
      case "ocp.collective.response":
      case "ocp.collective.synthesis":
        return this.#collective.handle(m);
      case "ocp.consensus.propose":
      case "ocp.consensus.vote":
      case "ocp.consensus.achieved":
      case "ocp.consensus.timeout":
        return this.#consensus.handle(m);
      case "ocp.awareness.beacon":
        this.presence.beacon(m.from, m.payload);
        this.emit("awareness", m.from, m.payload);
        return;
      case "ocp.awareness.update":
        this.presence.update(m.from, m.payload);
        this.emit("awareness", m.from, this.presence.get(m.from) as AwarenessBeaconPayload);
        return;
      case "ocp.awareness.query":
        await this.#outbound.send(
          "ocp.awareness.response",
          replyAddress(m),
          { queryId: m.payload.queryId, agents: this.presence.query(m.payload.filters) },
          { correlationId: m.id },
        );
        return;
      case "ocp.awareness.response":
        if (!this.#awarenessWaiters.resolve(m.payload.queryId, m.payload))
          await this.#sync.handle(m);
        return;
      case "ocp.event.publish":
        return this.#events.received(m.payload);
      case "ocp.event.notification":
        return this.#events.received(m.payload.event, m.payload.subscriptionId);
    }
  }
}

export type { VersionedItem };
