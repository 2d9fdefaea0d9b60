import {
  type Capabilities,
  CapabilitiesSchema,
  type ContextProvider,
  type ContextQuery,
  type ContextQueryInit,
  ContextQuerySchema,
  describeIssues,
  familyOfVersion,
  type ProtocolFamily,
  type ProviderInfo,
  StrictProviderInfoSchema,
  versionOfFamily,
  versionsCompatible,
} from "@ocp/types";
import type { Representation } from "@ocp/types/cgp";
import { sealQuery } from "@ocp/types/fast";
import { type HostError, hostError } from "./errors.js";
import type { ProviderTransport } from "./events.js";
import type { LegOptions } from "./leg.js";
import { MAX_PROVIDER_ID_LENGTH } from "./limits.js";
import { filledQuery, remember, resealed } from "./sealed-query.js";
import type { CgpSession, RefusedOffer } from "./session.js";

/** Options of one registration. */
export interface AddOptions {
  /** This provider's own per-leg timeout, overriding the host's. */
  readonly timeoutMs?: number;
}

export type ConsentState = "not_needed" | "granted" | "required";

/** One registered provider, as `list()` shows it. */
export interface ProviderListing {
  readonly id: string;
  /** Declared identity and data flow, as the provider stated it. */
  readonly info: ProviderInfo;
  readonly capabilities: Capabilities;
  readonly protocolVersion?: string;
  /** The family its handshake settled (never mixed afterwards). */
  readonly family: ProtocolFamily;
  /** Families offered first and refused by name, when any were. */
  readonly refusedFamilies?: readonly RefusedOffer[];
  /** contextgraph/1: the egress scopes it declared (C5, C6). */
  readonly egressScopes?: readonly string[];
  readonly transport: ProviderTransport;
  /** Effective egress: declared, or forced for every HTTP provider (C4). */
  readonly egress: boolean;
  readonly consent: ConsentState;
  /** What leaves the machine if consent is granted. */
  readonly whatLeaves?: string;
}

export interface QueryCallOptions {
  readonly signal?: AbortSignal;
  /** Overrides the per-leg timeout for this call. */
  readonly timeoutMs?: number;
  /** contextgraph/1: pins retrieval to an instant, a UTC timestamp (F4). ocp/1 legs ignore it. */
  readonly asOf?: string;
  /** contextgraph/1: representations preferred, in order; each provider gets only those it advertised (P5). */
  readonly representations?: readonly Representation[];
}

export interface ShutdownReport {
  /** Providers that shut down within the grace period. */
  readonly stopped: readonly string[];
  /** Providers that did not, and why. */
  readonly stragglers: readonly {
    providerId: string;
    reason: "timeout" | "error";
    error: HostError;
  }[];
}

/** What the host keeps per provider. */
export interface Entry {
  readonly provider: ContextProvider;
  readonly info: ProviderInfo;
  readonly capabilities: Capabilities;
  readonly transport: ProviderTransport;
  readonly egress: boolean;
  readonly endpoint: string | undefined;
  readonly timeoutMs: number | undefined;
  /** Its answers come decoded by the envelope schema (a transport of this package's own). */
  readonly decoded: boolean;
  /** The family its handshake settled. */
  readonly family: ProtocolFamily;
  /** contextgraph/1: the session every query and verify goes through. */
  readonly session: CgpSession | undefined;
  readonly refused: readonly RefusedOffer[];
  /** What the host builds once per provider for its calls (dispatch.ts). */
  readonly kept: { legOptions?: LegOptions };
}

/** What the host keeps of a provider it registers (C4: every HTTP provider is egress). */
export function entryOf(
  provider: ContextProvider,
  transport: ProviderTransport,
  declared: { info: ProviderInfo; capabilities: Capabilities },
  options: {
    endpoint?: string | undefined;
    timeoutMs?: number | undefined;
    decoded: boolean;
    connected?: { family: ProtocolFamily; session?: CgpSession; refused: readonly RefusedOffer[] };
  },
): Entry {
  const { info, capabilities } = declared;
  return {
    provider,
    info,
    capabilities,
    transport,
    egress:
      transport === "http" || info.data_flow.egress || provider.info?.data_flow?.egress === true,
    endpoint: options.endpoint,
    timeoutMs: options.timeoutMs,
    decoded: options.decoded,
    family: options.connected?.family ?? "ocp/1",
    session: options.connected?.session,
    refused: options.connected?.refused ?? [],
    kept: {},
  };
}

/**
 * Parses what a provider declares: H2 (name and version non-empty), valid
 * capabilities, and H3 (a known protocol version must be of our family).
 */
export function checkProvider(
  provider: ContextProvider,
  family: ProtocolFamily = "ocp/1",
): {
  info: ProviderInfo;
  capabilities: Capabilities;
} {
  const id = provider.id;
  // A transport that overrides `info` (HTTP forces egress, C4) keeps what the
  // provider itself declared in `declaredInfo`: list that, decide egress apart.
  const declared = (provider as { declaredInfo?: unknown }).declaredInfo ?? provider.info;
  const info = StrictProviderInfoSchema.safeParse(declared);
  if (!info.success) {
    throw hostError(
      "invalid_provider",
      `provider "${id}" declares invalid info (H2): ${describeIssues(info.error)}`,
      {
        details: { providerId: id },
      },
    );
  }
  const capabilities = CapabilitiesSchema.safeParse(provider.capabilities ?? {});
  if (!capabilities.success) {
    throw hostError(
      "invalid_provider",
      `provider "${id}" declares invalid capabilities: ${describeIssues(capabilities.error)}`,
      { details: { providerId: id } },
    );
  }
  const version = provider.protocolVersion;
  const ours = versionOfFamily(family);
  const same =
    family === "ocp/1"
      ? versionsCompatible(version ?? ours, ours)
      : familyOfVersion(version ?? ours) === family;
  if (version !== undefined && !same) {
    throw hostError(
      "incompatible_version",
      `provider "${id}" speaks ${version}, not in the family of ${ours} (H3)`,
      { details: { providerId: id, theirs: version, ours } },
    );
  }
  return { info: info.data, capabilities: capabilities.data };
}

/**
 * Shuts providers down concurrently, each within `grace` ms; those that
 * time out or throw are stragglers. `gone` runs once per provider either way.
 */
export async function shutdownEntries(
  entries: readonly (readonly [string, Entry])[],
  grace: number,
  gone: (providerId: string) => void,
): Promise<ShutdownReport> {
  const stopped: string[] = [];
  const stragglers: { providerId: string; reason: "timeout" | "error"; error: HostError }[] = [];
  await Promise.all(
    entries.map(async ([id, entry]) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<"late">((resolve) => {
        timer = setTimeout(() => resolve("late"), grace);
      });
      try {
        const done = Promise.resolve().then(() => entry.provider.shutdown());
        done.catch(() => undefined);
        const outcome = await Promise.race([done.then(() => "done" as const), late]);
        if (outcome === "done") stopped.push(id);
        else {
          stragglers.push({
            providerId: id,
            reason: "timeout",
            error: hostError("timeout", `provider "${id}" did not shut down within ${grace} ms`, {
              details: { providerId: id, timeoutMs: grace },
            }),
          });
        }
      } catch (error) {
        stragglers.push({
          providerId: id,
          reason: "error",
          error: hostError("provider_error", `provider "${id}" failed to shut down`, {
            cause: error,
            details: { providerId: id },
          }),
        });
      } finally {
        clearTimeout(timer);
        gone(id);
      }
    }),
  );
  return { stopped: stopped.sort(), stragglers };
}

export function parseQuery(query: ContextQueryInit): ContextQuery {
  // A query already in the plain form needs no schema pass. Either way the host keeps a sealed
  // (or frozen) copy: every leg of a fan-out receives that same object and every answer is audited against
  // it (B1, M1, K1), so a provider that writes to its query (an in-process one can) gets a
  // TypeError and changes neither its own budget, nor what the other legs receive, nor the
  // query the result reports; the caller's lists stay its own; the stdio and HTTP transports
  // encode it once however many legs send it. The same question asked again gets the same
  // sealed copy back, and one that only leaves its lists out (or carries members the schema
  // does not declare) is filled in as the schema would and sealed without its pass (sealed-query.ts).
  const again = resealed(query);
  if (again !== undefined) return again;
  const plain = sealQuery(query) ?? sealQuery(filledQuery(query));
  if (plain !== undefined) return remember(plain);
  const parsed = ContextQuerySchema.safeParse(query);
  if (!parsed.success) {
    throw hostError("invalid_query", `invalid query: ${describeIssues(parsed.error)}`);
  }
  const data = parsed.data;
  const sealed = sealQuery(data);
  if (sealed !== undefined) return remember(sealed);
  // A null member (not the plain form): the schema's output is its own object, frozen in place.
  Object.freeze(data.kinds);
  Object.freeze(data.anchors);
  if (data.embedding != null) Object.freeze(data.embedding);
  return remember(Object.freeze(data));
}

export function describeEgress(entry: Entry): string {
  const where =
    entry.transport === "http"
      ? `the remote endpoint ${entry.endpoint ?? "(unknown)"}`
      : `"${entry.info.name}" ${entry.info.version}, which declares egress`;
  const scopes = entry.session?.info.data_flow.egress_scopes ?? [];
  return (
    `every query payload (goal, query text, anchors, embedding, kinds and budget) is sent to ${where}` +
    "; it may leave this machine" +
    (scopes.length > 0 ? ` (declared egress scopes: ${scopes.join(", ")})` : "")
  );
}

/** How `list()` shows one provider. */
export function listingOf(id: string, entry: Entry, consented: boolean): ProviderListing {
  const consent: ConsentState = !entry.egress ? "not_needed" : consented ? "granted" : "required";
  const version = entry.provider.protocolVersion;
  return {
    id,
    info: entry.info,
    capabilities: entry.capabilities,
    ...(version !== undefined ? { protocolVersion: version } : {}),
    family: entry.family,
    ...(entry.refused.length > 0 ? { refusedFamilies: entry.refused } : {}),
    ...(entry.session?.info.data_flow.egress_scopes !== undefined
      ? { egressScopes: entry.session.info.data_flow.egress_scopes }
      : {}),
    transport: entry.transport,
    egress: entry.egress,
    consent,
    ...(entry.egress ? { whatLeaves: describeEgress(entry) } : {}),
  };
}

/**
 * Throws `invalid_provider` for an id that is not a non-empty string of at
 * most {@link MAX_PROVIDER_ID_LENGTH} characters, `duplicate_provider` for
 * one `entries` holds, `too_many_providers` when `entries` is full.
 */
export function checkCanAdd(id: string, entries: ReadonlyMap<string, Entry>, max: number): void {
  if (typeof id !== "string" || id === "" || id.length > MAX_PROVIDER_ID_LENGTH) {
    throw hostError(
      "invalid_provider",
      `a provider id must be a non-empty string of at most ${MAX_PROVIDER_ID_LENGTH} characters`,
      { details: { id: String(id) } },
    );
  }
  if (entries.has(id)) {
    throw hostError("duplicate_provider", `a provider with id "${id}" is already registered`, {
      details: { providerId: id },
    });
  }
  if (entries.size >= max) {
    throw hostError("too_many_providers", `this host holds at most ${max} providers`, {
      details: { providerId: id, max },
    });
  }
}
