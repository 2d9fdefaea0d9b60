/**
 * The bus: how the router reaches agents that are connected right now. The
 * default is {@link MemoryBus} (one process); a shared engine (NATS, for
 * several hubs) implements the same interface, and the router does not change.
 * The bus carries no durability: what must survive is in the {@link HubStore}
 * before the bus sees it.
 */

/** One delivery: durable ones carry their per-recipient sequence number. */
export type BusDelivery =
  /** A durable message: the session frames it with its sequence number (and may fetch gaps from the store). */
  | { kind: "durable"; seq: number; raw: string }
  /** A transient message: the exact bytes the sender sent, shared by every recipient. */
  | { kind: "transient"; bytes: Buffer };

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
}
