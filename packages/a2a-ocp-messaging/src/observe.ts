/**
 * `@ocp/a2a-ocp-messaging/observe`: what a hub and its federation let an
 * observer see as it happens, defined once for both sides. The hub
 * (`@ocp/a2a-ocp-hub`) emits these events and implements
 * {@link ObservableHub} and {@link ObservableFederation}; the dashboard
 * (`@ocp/a2a-ocp-dashboard`), which the hub loads as a plug-in, reads them.
 * Types only: this entry has no code at run time.
 */

/** An agent registered on a connection. */
export interface AgentRegisteredEvent {
  kind: "agent.registered";
  at: number;
  agentId: string;
}

/** An agent's connection closed. */
export interface AgentLeftEvent {
  kind: "agent.left";
  at: number;
  agentId: string;
}

/** A message passed the checks and was routed. */
export interface MessageAcceptedEvent {
  kind: "message.accepted";
  at: number;
  id: string;
  type: string;
  from: string;
  /** Whether the hub verified its signature (always, unless `verifyForwarded` is off for a transient one). */
  verified: boolean;
  /** The payload as the hub read it (inflated); `undefined` when encrypted. Read-only. */
  payload: unknown;
  /** Recipients it was routed to; `undefined` when a cluster bus routes it. */
  recipients?: number | undefined;
  /** Recipients left out by §8.5 visibility. */
  excluded: number;
  /** Whether it is durable (committed before this event) or transient. */
  durable: boolean;
  /** Its signed `timestamp` (the sender's clock). */
  sentAt?: string | undefined;
}

/** A message the hub refused, with the code it answered. */
export interface MessageRefusedEvent {
  kind: "message.refused";
  at: number;
  from: string;
  code: string;
  message: string;
  id?: string | undefined;
}

/** What `hub.observe(listener)` calls its listener with. */
export type HubEvent =
  | AgentRegisteredEvent
  | AgentLeftEvent
  | MessageAcceptedEvent
  | MessageRefusedEvent;

export type HubListener = (event: HubEvent) => void;

/** Counters of a running hub (`hub.stats()`). */
export interface HubStats {
  /** Agents connected now. */
  connected: number;
  /** Agents ever registered. */
  known: number;
  subscriptions: number;
  accepted: number;
  rejected: number;
  /** `rejected` by the code the hub answered (the hub's own codes, e.g. `signature_invalid`). */
  rejectedByCode: Record<string, number>;
  /** Durable messages committed. */
  committed: number;
  /** Deliveries handed to connections (durable and transient). */
  delivered: number;
  /** Connections closed as slow consumers (4003). */
  slowConsumerCloses: number;
  /** Highest outbound buffer of any connection, bytes. */
  peakOutboundBytes: number;
  /** Whether the store can be reached now (false while a clustered hub's NATS connection is down). */
  storeConnected: boolean;
}

/** What an observer (the dashboard) needs of a hub: the hub's `OCPHub` is one. */
export interface ObservableHub {
  /** Adds a listener, called synchronously with each event; returns the function that removes it. */
  observe(listener: HubListener): () => void;
  stats(): HubStats;
  /** The ids of the agents connected now. */
  connectedAgents(): string[];
}

/** A message crossed the federation boundary (`crossed`) or was refused at it (`refused`). */
export interface FederationCrossingEvent {
  kind: "crossing";
  at: number;
  /** The peer hub id: where it went, or where it came from. */
  peer: string;
  /** `out`: from this hub's agents to the peer; `in`: from the peer to this hub. */
  direction: "out" | "in";
  outcome: "crossed" | "refused";
  id?: string | undefined;
  from?: string | undefined;
  to: readonly string[];
  type?: string | undefined;
  /** The refusal code (`federation_withheld`, `federation_spoofed`, a message-layer code). */
  code?: string | undefined;
  reason?: string | undefined;
  /** The payload as this hub read it (inflated), when it verified the message; read-only. */
  payload?: unknown;
}

/** A hub link to `peer` came up or went down. */
export interface FederationLinkEvent {
  kind: "link";
  at: number;
  peer: string;
  open: boolean;
}

/** What `federation.observe(listener)` calls its listener with. */
export type FederationEvent = FederationCrossingEvent | FederationLinkEvent;

export type FederationListener = (event: FederationEvent) => void;

/** A peer link as `federation.links()` reports it. */
export interface FederationLinkState {
  hubId: string;
  open: boolean;
  /** Agents this peer vouched for (cards kept here). */
  agents: number;
}

/** What an observer (the dashboard) needs of a federation: the hub's `Federation` is one. */
export interface ObservableFederation {
  /** Each configured peer: whether its link is up, how many agents it vouched for. */
  links(): FederationLinkState[];
  /** Adds a listener, called synchronously with each event; returns the function that removes it. */
  observe(listener: FederationListener): () => void;
}
