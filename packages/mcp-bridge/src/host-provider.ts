import { Host } from "@ocp/host";
import type {
  ContextProvider,
  ContextQuery,
  ContextQueryResult,
  ProtocolFamily,
  QueryOptions,
} from "@ocp/types";
import { bridgeError } from "./errors.js";
import type { ProviderTarget } from "./provider-handle.js";

/** A provider reached through a one-provider {@link Host}, which negotiated its family. */
export interface HostedProvider extends ContextProvider {
  readonly family: ProtocolFamily;
  /** The host audited each answer by its family's rulebook: the bridge does not audit again. */
  readonly auditedByHost: true;
}

export interface HostedOptions {
  readonly target: ProviderTarget;
  readonly families: readonly ProtocolFamily[];
  readonly connectTimeoutMs: number;
  readonly queryTimeoutMs: number;
  readonly shutdownGraceMs: number;
  readonly log?: (message: string) => void;
}

const ID = "provider";

/**
 * Connects through `@ocp/host`, offering `families` in order (a provider
 * refusing one by name is handshaken again in the next). Under
 * `contextgraph/1` the host applies CGP's rules (B2/B4 drop, C5/C6 scope
 * receipts, D/P/E checks); under `ocp/1` the older rulebook. The host's
 * consent is granted only when the bridge queries, i.e. after the bridge's
 * own consent gate let the query through.
 */
export async function connectHosted(options: HostedOptions): Promise<HostedProvider> {
  const host = new Host({
    families: options.families,
    legTimeoutMs: options.queryTimeoutMs,
    shutdownTimeoutMs: options.shutdownGraceMs,
    warn: options.log ?? (() => {}),
  });
  const { target } = options;
  let listing: Awaited<ReturnType<Host["addStdio"]>>;
  try {
    listing =
      target.kind === "stdio"
        ? await host.addStdio({
            id: ID,
            command: target.command,
            args: target.args ?? [],
            env: target.env ?? {},
            handshakeTimeoutMs: options.connectTimeoutMs,
            queryTimeoutMs: options.queryTimeoutMs,
            shutdownGraceMs: options.shutdownGraceMs,
          })
        : await host.addHttp({
            id: ID,
            url: target.url,
            ...(target.token === undefined ? {} : { token: target.token }),
            handshakeTimeoutMs: options.connectTimeoutMs,
            requestTimeoutMs: options.queryTimeoutMs,
          });
  } catch (error) {
    await host.shutdown().catch(() => undefined);
    throw error;
  }
  let consented = listing.consent !== "required";
  return {
    id: ID,
    family: listing.family,
    auditedByHost: true,
    info: listing.info,
    capabilities: listing.capabilities,
    ...(listing.protocolVersion === undefined ? {} : { protocolVersion: listing.protocolVersion }),
    async query(query: ContextQuery, queryOptions: QueryOptions = {}): Promise<ContextQueryResult> {
      if (!consented) {
        await host.grantConsent(ID, { grantedBy: "ocp-to-mcp" });
        consented = true;
      }
      const result = await host.queryAll(query, {
        ...(queryOptions.signal === undefined ? {} : { signal: queryOptions.signal }),
      });
      const liar = result.liars[0];
      if (liar !== undefined)
        throw bridgeError("provider_dishonest", `provider_dishonest: ${liar.message}`);
      const failure = result.failures[0];
      if (failure !== undefined) throw failure.error;
      // A provider skipped for not serving the kinds asked for has nothing to say: no frames.
      return { frames: result.accepted.map((a) => a.frame), truncated: result.trimmed.length > 0 };
    },
    async shutdown(): Promise<void> {
      await host.shutdown();
    },
  };
}
