import type { Capabilities, ProviderInfo } from "./capability.js";
import type { ContextQuery, ContextQueryResult } from "./query.js";

/** Options of one query. */
export interface QueryOptions {
  /**
   * Aborts the query. The promise then rejects with an `OcpError` coded
   * `aborted` whose `cause` is the signal's reason.
   */
  readonly signal?: AbortSignal;
  /**
   * Fails the query with an `OcpError` coded `timeout` when no answer came
   * this many milliseconds after the call (a positive integer). Transports
   * fall back to their own configured timeout when it is absent; a host
   * passes its per-leg timeout here, so one deadline bounds the leg.
   */
  readonly timeoutMs?: number;
  /**
   * The W3C trace context of the caller's span (a host with tracing on). An
   * HTTP transport sends it as the `traceparent` header; stdio ignores it
   * (the ocp/1 wire has no place for it, and gains none).
   */
  readonly traceparent?: string;
}

/**
 * What every context provider is to a host, whether it runs in-process,
 * behind a pipe or behind an HTTP endpoint.
 */
export interface ContextProvider {
  /** Host-chosen, unique among the host's providers. */
  readonly id: string;
  /** Identity and declared data flow, from the handshake. */
  readonly info: ProviderInfo;
  readonly capabilities: Capabilities;
  /** The version the provider answered the handshake with, when known. */
  readonly protocolVersion?: string;
  query(query: ContextQuery, options?: QueryOptions): Promise<ContextQueryResult>;
  /** Tears the provider down; resolves once it is gone. Idempotent. */
  shutdown(): Promise<void>;
}
