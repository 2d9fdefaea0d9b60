import type { ConnectHttpProviderOptions } from "@ocp/transport-http/client";
import type { SpawnStdioProviderOptions } from "@ocp/transport-stdio";
import type {
  ContextProvider,
  ContextQueryInit,
  ContextQueryResult,
  ProtocolFamily,
} from "@ocp/types";
import { type CgpLegContext, cgpConsentMissing, cgpGate, checkCallMembers } from "./cgp-leg.js";
import { type Connected, connectHttp, connectStdio } from "./connect.js";
import { type ConsentReceipt, ConsentStore } from "./consent.js";
import { type LegHost, legHostOf, startLeg } from "./dispatch.js";
import { checkLimit, hostError } from "./errors.js";
import {
  HostEventEmitter,
  type HostEventName,
  type HostListener,
  type ProviderTransport,
} from "./events.js";
import { type AcceptedFrame, type FanOutResult, resultOf } from "./fanout.js";
import { fanOut } from "./fanout-run.js";
import {
  DEFAULT_SHUTDOWN_TIMEOUT_MS,
  MAX_LEG_TIMEOUT_MS,
  MAX_PROVIDERS,
  MAX_PROVIDERS_CEILING,
} from "./limits.js";
import type { HostOptions } from "./options.js";
import { type Grantor, ReceiptLedger, type ScopeGrant, type ScopeRevocation } from "./receipts.js";
import {
  type AddOptions,
  checkCanAdd,
  checkProvider,
  describeEgress,
  type Entry,
  entryOf,
  listingOf,
  type ProviderListing,
  parseQuery,
  type QueryCallOptions,
  type ShutdownReport,
  shutdownEntries,
} from "./registry.js";
import { type ReuseVerdict, verifyHeld } from "./reuse-run.js";
import { type FamilyOptions, familiesOf } from "./session.js";

/** Providers of our transports, whose answers come decoded by the envelope schema. */
const DECODED = new WeakSet<ContextProvider>();

/** The options of a call that passes none (one frozen object, not a fresh `{}` per call). */
const NO_OPTIONS: QueryCallOptions = Object.freeze({});

/**
 * The host runtime: a registry of providers, the consent gate (C1, C2, C4),
 * single and fan-out queries with per-leg timeout and crash isolation, and the
 * budget audit (B1, B2). Compose the result with `compose()`.
 */
export type { HostOptions };

export class Host {
  readonly consent: ConsentStore;
  readonly receipts: ReceiptLedger;
  readonly #families: readonly ProtocolFamily[];
  readonly #cgp: CgpLegContext;
  readonly #legHost: LegHost;
  readonly #entries = new Map<string, Entry>();
  readonly #events: HostEventEmitter;
  readonly #maxProviders: number;
  readonly #shutdownTimeoutMs: number;
  readonly #warn: (line: string) => void;
  #closed = false;

  constructor(options: HostOptions = {}) {
    checkLimit("legTimeoutMs", options.legTimeoutMs, MAX_LEG_TIMEOUT_MS);
    checkLimit("maxProviders", options.maxProviders, MAX_PROVIDERS_CEILING);
    checkLimit("shutdownTimeoutMs", options.shutdownTimeoutMs, MAX_LEG_TIMEOUT_MS);
    this.consent = options.consent ?? ConsentStore.inMemory();
    this.receipts = options.receipts ?? ReceiptLedger.inMemory();
    this.#families = familiesOf({ families: options.families }, ["ocp/1"]);
    this.#maxProviders = options.maxProviders ?? MAX_PROVIDERS;
    this.#shutdownTimeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
    this.#warn = options.warn ?? ((line) => process.stderr.write(`[ocp-host] ${line}\n`));
    this.#events = new HostEventEmitter((error, name) =>
      this.#warn(
        `a "${name}" listener threw: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
    this.#legHost = legHostOf(options, this.consent, this.receipts, this.#events, this.#warn);
    this.#cgp = this.#legHost.cgp;
  }

  on<E extends HostEventName>(name: E, listener: HostListener<E>): () => void {
    return this.#events.on(name, listener);
  }

  off<E extends HostEventName>(name: E, listener: HostListener<E>): void {
    this.#events.off(name, listener);
  }

  /**
   * Registers an in-process provider. Its declared info must name the
   * provider (H2) and its protocol version, when known, must be in our major
   * family (H3). An egress provider is registered but not enabled (C1).
   */
  add(provider: ContextProvider, options: AddOptions = {}): ProviderListing {
    return this.register(provider, "in-process", options);
  }

  /**
   * Spawns a provider child over NDJSON stdio (`@ocp/transport-stdio`: scrubbed
   * environment, own process group, handshake checked for H3) and registers
   * it. The id is checked before anything is spawned; a child that cannot be
   * registered is shut down again.
   */
  async addStdio(
    options: SpawnStdioProviderOptions & AddOptions & FamilyOptions,
  ): Promise<ProviderListing> {
    const { timeoutMs, family, families, ...spawnOptions } = options;
    this.#assertCanAdd(options.id);
    checkLimit("timeoutMs", timeoutMs, MAX_LEG_TIMEOUT_MS);
    const offered = familiesOf({ family, families }, this.#families);
    return this.#adopt(await connectStdio(spawnOptions, offered), "stdio", timeoutMs);
  }

  /**
   * Connects to a remote provider (`@ocp/transport-http`: handshake checked
   * for H3, TLS required off loopback, token never logged) and registers it.
   * It is egress whatever it declares (C4), so it stays disabled until
   * consent is granted. The id is checked before anything is sent.
   */
  async addHttp(
    options: ConnectHttpProviderOptions & AddOptions & FamilyOptions,
  ): Promise<ProviderListing> {
    const { timeoutMs, family, families, ...connectOptions } = options;
    this.#assertCanAdd(options.id);
    checkLimit("timeoutMs", timeoutMs, MAX_LEG_TIMEOUT_MS);
    const offered = familiesOf({ family, families }, this.#families);
    return this.#adopt(await connectHttp(connectOptions, offered), "http", timeoutMs);
  }

  /** Registers a connected provider of our transports; shuts it down if it cannot be. */
  async #adopt(
    connected: Connected,
    transport: "stdio" | "http",
    timeoutMs: number | undefined,
  ): Promise<ProviderListing> {
    const provider = connected.provider;
    try {
      DECODED.add(provider);
      return this.register(provider, transport, {
        timeoutMs,
        endpoint: connected.endpoint,
        connected,
      });
    } catch (error) {
      await provider.shutdown().catch(() => undefined);
      throw error;
    }
  }

  /**
   * Registers a provider reached over `transport`. Used by `add`, `addStdio`
   * and `addHttp`; exported for transports of other kinds. An `http`
   * provider is egress whatever it declares (C4).
   */
  register(
    provider: ContextProvider,
    transport: ProviderTransport,
    options: AddOptions & { endpoint?: string; connected?: Connected } = {},
  ): ProviderListing {
    checkLimit("timeoutMs", options.timeoutMs, MAX_LEG_TIMEOUT_MS);
    const id = provider.id;
    this.#assertCanAdd(id);
    const connected = options.connected?.provider === provider ? options.connected : undefined;
    const { info, capabilities } = checkProvider(provider, connected?.family);
    const entry = entryOf(
      provider,
      transport,
      { info, capabilities },
      {
        ...options,
        decoded: DECODED.has(provider),
        connected,
      },
    );
    this.#entries.set(id, entry);
    this.#events.emit("provider_added", {
      providerId: id,
      info: entry.info,
      capabilities: entry.capabilities,
      transport,
      egress: entry.egress,
    });
    return this.#listing(id, entry);
  }

  /** Every registered provider with its declared info, capabilities and consent state. */
  list(): ProviderListing[] {
    return [...this.#entries].map(([id, entry]) => this.#listing(id, entry));
  }

  /** One provider's listing; throws `unknown_provider`. */
  get(providerId: string): ProviderListing {
    return this.#listing(providerId, this.#entry(providerId));
  }

  /** The text a consent prompt shows: what leaves, to whom. */
  whatLeaves(providerId: string): string {
    return describeEgress(this.#entry(providerId));
  }

  /**
   * Records consent for an egress provider, bound to its id and declared name.
   * Resolves once the receipt is durable.
   */
  async grantConsent(
    providerId: string,
    grant: { grantedBy: string; whatLeaves?: string },
  ): Promise<ConsentReceipt> {
    const entry = this.#entry(providerId);
    const receipt = await this.consent.grant({
      provider: providerId,
      name: entry.info.name,
      what_leaves: grant.whatLeaves ?? describeEgress(entry),
      granted_by: grant.grantedBy,
    });
    this.#events.emit("consent_granted", { receipt });
    return receipt;
  }

  /** Revokes consent; the next query to the provider fails with `consent_required`. */
  async revokeConsent(
    providerId: string,
    revocation: { revokedBy: string },
  ): Promise<ConsentReceipt> {
    const receipt = await this.consent.revoke({
      provider: providerId,
      revoked_by: revocation.revokedBy,
    });
    this.#events.emit("consent_revoked", { receipt });
    return receipt;
  }

  /** C6: appends a receipt for one egress scope, pinning the provider's name and version. */
  grantScope(
    providerId: string,
    scope: string,
    grantor: Grantor,
    options: { expiresAt?: string } = {},
  ): Promise<ScopeGrant> {
    return this.receipts.grant(this.#subject(providerId), scope, grantor, options);
  }

  /** Appends a revocation of one scope; the next query to the provider is refused (C6). */
  revokeScope(providerId: string, scope: string, grantor: Grantor): Promise<ScopeRevocation> {
    return this.receipts.revoke(this.#subject(providerId), scope, grantor);
  }

  /**
   * §9 (contextgraph/1): asks each provider of `held` frames whether they are
   * still current, sending identities only (V1), to providers that declared
   * `verify` and pass the consent gate. Only `valid` keeps a frame (V3);
   * digest-less frames are never reused (D3). Never rejects for a provider.
   */
  verifyFrames(
    held: readonly AcceptedFrame[],
    options: QueryCallOptions = {},
  ): Promise<ReuseVerdict> {
    this.#assertOpen();
    checkLimit("timeoutMs", options.timeoutMs, MAX_LEG_TIMEOUT_MS);
    return verifyHeld(held, {
      entry: (id) => this.#entries.get(id),
      gate: (id, entry, session) => cgpGate(this.#cgp, id, entry, session),
      timeoutMs: (entry) => options.timeoutMs ?? entry.timeoutMs ?? this.#legHost.legTimeoutMs,
      signal: options.signal,
    });
  }

  #subject(providerId: string): { providerId: string; name: string; version: string } {
    const entry = this.#entry(providerId);
    return { providerId, name: entry.info.name, version: entry.info.version };
  }

  /**
   * Queries one provider. Throws `consent_required` (before transmitting
   * anything, C2), `timeout`, `aborted`, `provider_error` and, when its answer
   * breaks a rule that drops (B1, F1-F3, T1), `provider_violation` with the
   * violations in `details`: its frames are never returned (B2). An answer
   * that only breaks K1 or M1 comes back trimmed (see the rule table).
   * (Not async: one promise step after the leg's, no async frame of its own.)
   */
  queryProvider(
    providerId: string,
    query: ContextQueryInit,
    options: QueryCallOptions = NO_OPTIONS,
  ): Promise<ContextQueryResult> {
    try {
      this.#assertOpen();
      const entry = this.#entry(providerId);
      const parsed = parseQuery(query);
      checkLimit("timeoutMs", options.timeoutMs, MAX_LEG_TIMEOUT_MS);
      checkCallMembers(options);
      return startLeg(this.#legHost, providerId, entry, parsed, options, resultOf);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Fans a query out, concurrently, to every provider whose declared kinds
   * match. Each leg has its own timeout and abort; every failure is a value.
   * Resolves when the slowest leg has answered or timed out, so the total time
   * is bounded by the per-leg timeout, not the sum of them.
   */
  queryAll(query: ContextQueryInit, options: QueryCallOptions = NO_OPTIONS): Promise<FanOutResult> {
    try {
      this.#assertOpen();
      const parsed = parseQuery(query);
      checkLimit("timeoutMs", options.timeoutMs, MAX_LEG_TIMEOUT_MS);
      checkCallMembers(options);
      return fanOut(this.#legHost, this.#entries, parsed, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Shuts one provider down and forgets it. */
  async remove(providerId: string): Promise<void> {
    const entry = this.#entry(providerId);
    this.#entries.delete(providerId);
    try {
      await entry.provider.shutdown();
    } finally {
      this.#events.emit("provider_removed", { providerId });
    }
  }

  /**
   * Shuts every provider down concurrently, each within the grace period, and
   * reports those that did not go (stragglers). The host refuses work after.
   * Idempotent.
   */
  async shutdown(options: { timeoutMs?: number } = {}): Promise<ShutdownReport> {
    checkLimit("timeoutMs", options.timeoutMs, MAX_LEG_TIMEOUT_MS);
    this.#closed = true;
    const grace = options.timeoutMs ?? this.#shutdownTimeoutMs;
    const entries = [...this.#entries];
    this.#entries.clear();
    const report = await shutdownEntries(entries, grace, (id) =>
      this.#events.emit("provider_removed", { providerId: id }),
    );
    for (const straggler of report.stragglers) this.#warn(straggler.error.message);
    return report;
  }

  #entry(providerId: string): Entry {
    const entry = this.#entries.get(providerId);
    if (entry === undefined) {
      throw hostError("unknown_provider", `no provider with id "${providerId}"`, {
        details: { providerId },
      });
    }
    return entry;
  }

  #listing(id: string, entry: Entry): ProviderListing {
    const session = entry.session;
    const consented =
      session === undefined
        ? this.consent.isGranted(id, entry.info.name)
        : cgpConsentMissing(this.#cgp, id, entry, session) === undefined;
    return listingOf(id, entry, consented);
  }

  /** Id and capacity checks, run before anything is spawned or connected. */
  #assertCanAdd(id: string): void {
    this.#assertOpen();
    checkCanAdd(id, this.#entries, this.#maxProviders);
  }

  #assertOpen(): void {
    if (this.#closed) throw hostError("host_shut_down", "this host has been shut down");
  }
}
