/**
 * The bus: how the router reaches agents that are connected right now. The
 * default is {@link MemoryBus} (one process); a shared engine (NATS, for
 * several hubs) implements the same interface, and the router does not change.
 * The bus carries no durability: what must survive is in the {@link HubStore}
 * before the bus sees it.
 */

import type { EventPublishPayload, EventSubscription } from "@ocp/a2a-ocp-messaging";
import type { BudgetSpend } from "./budget.js";
import type { DeliveryTrace } from "./telemetry.js";

/** One delivery: durable ones carry their per-recipient sequence number. */
export type BusDelivery =
  /** A durable message: the session frames it with its sequence number (and may fetch gaps from the store). */
  | { kind: "durable"; seq: number; raw: string; trace?: DeliveryTrace }
  /** A transient message: the exact bytes the sender sent, shared by every recipient. */
  | { kind: "transient"; bytes: Buffer; trace?: DeliveryTrace };

/** Receives the deliveries of one attached agent. */
export type BusSink = (delivery: BusDelivery) => void;

export interface HubBus {
  /** Routes deliveries for `agentId` to `sink` until the returned function is called. One sink per agent. */
  attach(agentId: string, sink: BusSink): () => void;
  /** Delivers to `agentId` if it is attached (anywhere the bus reaches); false when it is not. */
  deliver(agentId: string, delivery: BusDelivery): boolean;
  /** Whether `agentId` is attached. */
  isAttached(agentId: string): boolean;
  /** Every attached agent. */
  attached(): Iterable<string>;
  /** Detaches everyone. */
  close(): Promise<void>;
  /**
   * Present on a bus shared by several hubs (NATS): it routes transient
   * broadcasts and event publications by subject itself, so the hub hands
   * them over whole instead of resolving recipients (see {@link ClusterRouting}).
   */
  readonly cluster?: ClusterRouting;
}

/** A transient broadcast handed to a {@link ClusterRouting} bus. */
export interface ClusterBroadcast {
  id: string;
  from: string;
  type: string;
  /** The readable payload (`undefined` when encrypted). */
  payload: unknown;
  /** The exact bytes the sender sent. */
  bytes: Buffer;
}

/** Routing done by a shared bus (issue 11: hubs clustered on NATS). */
export interface ClusterRouting {
  /** Publishes a transient broadcast (events by their type); resolves once the engine has it. */
  broadcast(message: ClusterBroadcast): Promise<void>;
  /** An agent's event subscription was added or replaced; resolves once it routes cluster-wide. */
  subscribed(subscription: EventSubscription): Promise<void>;
  /** An agent's event subscription was removed; resolves once it no longer routes. */
  unsubscribed(agentId: string, subscriptionId: string): Promise<void>;
  /**
   * Optional: the hub hands over how it signs §5.5.4 notifications, so a
   * subscriber attached to it gets `ocp.event.notification` (its
   * `subscriptionId`, signed by this hub, carrying the signed publish), as
   * on a single hub, rather than the raw publish.
   */
  useNotifier?(notify: EventNotifier): void;
  /**
   * Optional: the hub hands over its budgets per agent (budget.ts), and the
   * bus shares what agents spend here with the other hubs of the cluster
   * (drained periodically) and counts what they spent there (credited).
   */
  shareBudgets?(budgets: SharedBudgets): void;
}

/** The part of the hub's budgets per agent a cluster bus shares. */
export interface SharedBudgets {
  drain(): BudgetSpend[];
  credit(spend: BudgetSpend, now: number): void;
}

/** The signed `ocp.event.notification` text of `publish` (its JSON) for one subscription of `to`. */
export type EventNotifier = (
  to: string,
  subscriptionId: string,
  publish: Record<string, unknown>,
  event: EventPublishPayload,
) => string;
