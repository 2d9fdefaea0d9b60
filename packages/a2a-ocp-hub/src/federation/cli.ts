/** `ocp-hub --federate FILE`: reads the federate file (exits 2 on a bad one) and builds the federation. */

import type { FederationClusterOptions } from "../nats/federation-share.js";
import { loadFederationConfig } from "./config.js";
import { Federation } from "./federation.js";

/** The federation of `--federate path` on the hub's SQLite file `dbPath` (with `cluster`: on the cluster's JetStream store). */
export async function cliFederation(
  path: string,
  dbPath: string,
  synchronous: "FULL" | "NORMAL",
  onError: (error: unknown) => void,
  cluster?: FederationClusterOptions,
): Promise<Federation> {
  try {
    const config = await loadFederationConfig(path);
    return new Federation({
      config,
      dbPath,
      synchronous,
      onError,
      ...(cluster === undefined ? {} : { cluster }),
    });
  } catch (error) {
    process.stderr.write(
      `ocp-hub: --federate ${path}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(2);
  }
}
