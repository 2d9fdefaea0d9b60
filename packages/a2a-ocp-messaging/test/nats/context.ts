import type { DeliveredMessage, HubClient, HubClientOptions } from "../../src/hub/index.js";
import type { AgentIdentity } from "../../src/index.js";
import type { HubProcess } from "./support.js";

/** What the cluster tests share: three hub processes on one NATS server. */
export interface ClusterContext {
  hubs: HubProcess[];
  /** The NATS server's URL. */
  natsUrl(): string;
  /** Connects a new agent to hub `hub` (closed after the suite). */
  join(
    name: string,
    hub: number,
    options?: Partial<HubClientOptions>,
  ): Promise<{ id: AgentIdentity; client: HubClient; received: DeliveredMessage[] }>;
  /** Connects `id` to hub `hub` (a moved agent). */
  rejoin(
    id: AgentIdentity,
    hub: number,
    options?: Partial<HubClientOptions>,
  ): Promise<{ client: HubClient; received: DeliveredMessage[] }>;
  /** Runs `close` after the suite (before the hubs stop). */
  onClose(close: () => Promise<unknown>): void;
}

/** Reconnect quickly in tests. */
export const transport = { reconnectBaseMs: 50, reconnectMaxMs: 500 };
