import { isProviderCrashCode } from "@ocp/host/internal";
import { connectHttpProvider } from "@ocp/transport-http/client";
import { spawnStdioProvider } from "@ocp/transport-stdio";
import { type ContextProvider, isOcpError, type ProtocolFamily } from "@ocp/types";
import { bridgeError } from "./errors.js";
import { connectHosted } from "./host-provider.js";
import { CONNECT_TIMEOUT_MS, PROVIDER_QUERY_TIMEOUT_MS, SHUTDOWN_GRACE_MS } from "./limits.js";

/** Where the Open Context provider is: a command to spawn (stdio), or an HTTP endpoint. */
export type ProviderTarget =
  | {
      readonly kind: "stdio";
      readonly command: string;
      readonly args?: readonly string[];
      readonly env?: Readonly<Record<string, string>>;
    }
  | { readonly kind: "http"; readonly url: string; readonly token?: string };

export interface ProviderHandleOptions {
  readonly target: ProviderTarget;
  readonly connectTimeoutMs?: number;
  readonly queryTimeoutMs?: number;
  /**
   * Families offered in order (`--family`). Default `["ocp/1"]`: the
   * transports directly. Any other list goes through `@ocp/host`, which
   * negotiates the family and applies its rulebook.
   */
  readonly families?: readonly ProtocolFamily[];
}

/**
 * Failures after which the provider is started (or reached) afresh by the
 * next call: the host's table of crash codes, and a stdio line too long
 * (the stream is out of step after it).
 */
function gone(code: string): boolean {
  return isProviderCrashCode(code) || code === "line_too_long";
}

/**
 * One Open Context provider, through `@ocp/transport-stdio` (scrubbed env,
 * own process group, handshake and query timeouts) or
 * `@ocp/transport-http/client` (TLS off loopback, always egress, C4). When a
 * stdio provider crashes, the next call spawns it again.
 */
export class ProviderHandle {
  readonly #options: ProviderHandleOptions;
  #current: Promise<ContextProvider> | undefined;

  constructor(options: ProviderHandleOptions) {
    this.#options = options;
  }

  get(): Promise<ContextProvider> {
    this.#current ??= this.#connect().catch((error: unknown) => {
      this.#current = undefined;
      throw error;
    });
    return this.#current;
  }

  /** Forgets the provider after a failure that ended it; the next {@link get} reconnects. */
  failed(error: unknown): void {
    // A stdio provider that missed a deadline may still answer it later, out of turn: start afresh.
    const stale = isOcpError(error, "timeout") && this.#options.target.kind === "stdio";
    if (stale || (isOcpError(error) && gone(error.code))) {
      const current = this.#current;
      this.#current = undefined;
      void current?.then((provider) => provider.shutdown()).catch(() => {});
    }
  }

  async #connect(): Promise<ContextProvider> {
    const { target } = this.#options;
    const connect = this.#options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
    const query = this.#options.queryTimeoutMs ?? PROVIDER_QUERY_TIMEOUT_MS;
    const families = this.#options.families ?? ["ocp/1"];
    try {
      if (families.length !== 1 || families[0] !== "ocp/1") {
        return await connectHosted({
          target,
          families,
          connectTimeoutMs: connect,
          queryTimeoutMs: query,
          shutdownGraceMs: SHUTDOWN_GRACE_MS,
        });
      }
      if (target.kind === "stdio") {
        return await spawnStdioProvider({
          id: "provider",
          command: target.command,
          args: target.args ?? [],
          env: target.env ?? {},
          handshakeTimeoutMs: connect,
          queryTimeoutMs: query,
          shutdownGraceMs: SHUTDOWN_GRACE_MS,
        });
      }
      return await connectHttpProvider({
        id: "provider",
        url: target.url,
        ...(target.token === undefined ? {} : { token: target.token }),
        handshakeTimeoutMs: connect,
        requestTimeoutMs: query,
      });
    } catch (error) {
      const what = target.kind === "stdio" ? target.command : new URL(target.url).host;
      throw bridgeError(
        "connect_failed",
        `cannot connect to Open Context provider ${what}: ${(error as Error).message}`,
        { details: { target: what, code: (error as { code?: unknown }).code }, cause: error },
      );
    }
  }

  async shutdown(): Promise<void> {
    const current = this.#current;
    this.#current = undefined;
    const provider = await current?.catch(() => undefined);
    await provider?.shutdown();
  }
}
