import { createHttpProviderServer } from "@ocp/transport-http/server";
import type { ContextProvider } from "@ocp/types";

export interface ServeHttpOptions {
  readonly port: number;
  readonly host: string;
  /** Name of the environment variable holding the bearer token, if any. */
  readonly tokenEnv?: string;
  readonly quiet: boolean;
}

/**
 * Serves `provider` as JSON over HTTP until SIGINT or SIGTERM. Prints
 * `listening on URL` on stderr once it accepts requests. A `shutdown`
 * envelope is answered (R2: that host sends no further requests) but does not
 * stop the server: over HTTP other hosts may still be using it.
 */
export async function serveHttp(
  provider: ContextProvider,
  options: ServeHttpOptions,
): Promise<void> {
  let token: string | undefined;
  if (options.tokenEnv !== undefined) {
    token = process.env[options.tokenEnv];
    if (token === undefined || token === "") {
      throw new Error(`environment variable ${options.tokenEnv} (the bearer token) is not set`);
    }
  }
  const server = createHttpProviderServer(provider, { token, onShutdown: "acknowledge" });
  const url = await server.listen({ host: options.host, port: options.port });
  process.stderr.write(
    `ocp-demo-provider: listening on ${url}${token ? " (bearer token required)" : ""}\n`,
  );
  const stop = async (code: number) => {
    await server.close().catch(() => undefined);
    process.exit(code);
  };
  process.once("SIGINT", () => void stop(130));
  process.once("SIGTERM", () => void stop(0));
  if (!options.quiet) {
    void server.shutdownRequested.then(() =>
      process.stderr.write("ocp-demo-provider: a host said shutdown; still serving others\n"),
    );
  }
}
