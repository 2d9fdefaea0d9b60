import type { ProtocolFamily } from "@ocp/types";
import type { ConsentStore } from "./consent.js";
import type {
  DEFAULT_LEG_TIMEOUT_MS,
  DEFAULT_SHUTDOWN_TIMEOUT_MS,
  MAX_PROVIDERS,
} from "./limits.js";
import type { ReceiptLedger } from "./receipts.js";
import type { HostTracing } from "./tracing.js";

export interface HostOptions {
  /** Where consent lives. Default: in memory (forgotten on exit). */
  readonly consent?: ConsentStore;
  /** Per-leg timeout of queries. Default {@link DEFAULT_LEG_TIMEOUT_MS}. */
  readonly legTimeoutMs?: number;
  /** Default {@link MAX_PROVIDERS}. */
  readonly maxProviders?: number;
  /** Per-provider grace of `shutdown()`. Default {@link DEFAULT_SHUTDOWN_TIMEOUT_MS}. */
  readonly shutdownTimeoutMs?: number;
  /** Audit declared costs against measured tokens (T1). Default true. */
  readonly measureCosts?: boolean;
  /**
   * Where loud reports go (dropped providers, throwing listeners). Default:
   * one line each on stderr, never stdout.
   */
  readonly warn?: (line: string) => void;
  /** contextgraph/1 consent receipts (C6). Default: in memory. */
  readonly receipts?: ReceiptLedger;
  /** Families offered to a provider registered without `family`/`families`. Default `["ocp/1"]`. */
  readonly families?: readonly ProtocolFamily[];
  /** The host's embedding space, `<model>/<dims>[/<norm>]` (E1). Default: none, no vector is sent. */
  readonly embeddingFingerprint?: string;
  /**
   * F5 bytes (contextgraph/1): folders the host trusts to re-read; a `file`
   * provenance digest under one that does not match the bytes on disk drops
   * the answer. Default: none (nothing is re-read).
   */
  readonly trustedRoots?: readonly string[];
  /**
   * OpenTelemetry: one `ocp.host.query` span per provider call, and over
   * HTTP its `traceparent` header (docs/tracing.md). Off by default: `true`
   * uses the globally registered tracer provider, or pass one.
   */
  readonly tracing?: HostTracing;
}
