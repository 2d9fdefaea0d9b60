import type { AgentIdentity, AgentProfile, Decryptor, KeyLookup } from "@ocp/a2a-ocp-messaging";
import type { LimitOptions } from "@ocp/transport-ws";
import type { CLIENT_ACK_TIMEOUT_MS, CLIENT_DEDUP_MAX_ENTRIES } from "./limits.js";
import type { ClientTracing } from "./tracing.js";

/** The options of a {@link HubClient}. */
export interface HubClientOptions {
  /** The hub's `ws://` URL. */
  url: string;
  identity: AgentIdentity;
  /** The agent's signed profile; created from `identity` when absent. */
  profile?: AgentProfile;
  /** Where senders' keys come from; by default verified profiles fetched from the hub (and cached). */
  lookupKey?: KeyLookup;
  /** Resume after this durable sequence number (persisted by the caller across restarts); 0 by default. */
  lastSeq?: number;
  /** Decrypts encrypted messages addressed to this agent (see the node entry's `createDecryptor`). */
  decrypt?: Decryptor;
  /** How long `send` waits for the hub's ack, ms (default `CLIENT_ACK_TIMEOUT_MS`). */
  ackTimeoutMs?: number;
  /** Reconnect after a lost connection (default true). */
  reconnect?: boolean;
  /** WebSocket limits (reconnect backoff, heartbeats, payload size). */
  transport?: LimitOptions;
  /**
   * The replay window's bounds: exact ids (default
   * `CLIENT_DEDUP_MAX_ENTRIES`) and the Bloom filters of evicted ids
   * (bytes in all, bytes per filter; the message layer's defaults).
   */
  dedup?: { maxEntries?: number; filterBytes?: number; bytesPerFilter?: number };
  /**
   * OpenTelemetry spans of sends and deliveries, linked through the hub's
   * (docs/tracing.md). Off by default: `true` uses the globally registered
   * tracer provider, or pass one.
   */
  tracing?: ClientTracing;
}
