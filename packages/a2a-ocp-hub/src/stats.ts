/** Counters of a running hub. */
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
