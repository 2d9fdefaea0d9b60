/** `ocp-hub --federate FILE`: reads the federate file (exits 2 on a bad one) and builds the federation. */

import { loadFederationConfig } from "./config.js";
import { Federation } from "./federation.js";

/** The federation of `--federate path` on the hub's SQLite file `dbPath`. */
export async function cliFederation(
  path: string,
  dbPath: string,
  synchronous: "FULL" | "NORMAL",
  onError: (error: unknown) => void,
): Promise<Federation> {
  try {
    const config = await loadFederationConfig(path);
    return new Federation({ config, dbPath, synchronous, onError });
  } catch (error) {
    process.stderr.write(
      `ocp-hub: --federate ${path}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(2);
  }
}
