import type { BusDelivery, BusSink, HubBus } from "./bus.js";

/** The in-process {@link HubBus}: a map from agent id to its sink. */
export class MemoryBus implements HubBus {
  readonly #sinks = new Map<string, BusSink>();

  attach(agentId: string, sink: BusSink): () => void {
    this.#sinks.set(agentId, sink);
    return () => {
      if (this.#sinks.get(agentId) === sink) this.#sinks.delete(agentId);
    };
  }

  deliver(agentId: string, delivery: BusDelivery): boolean {
    const sink = this.#sinks.get(agentId);
    if (sink === undefined) return false;
    sink(delivery);
    return true;
  }

  isAttached(agentId: string): boolean {
    return this.#sinks.has(agentId);
  }

  attached(): Iterable<string> {
    return this.#sinks.keys();
  }

  async close(): Promise<void> {
    this.#sinks.clear();
  }
}
