/**
 * The files `ocp-hub` reads at start (`--allow`, `--identity`): each exits 2
 * with one line naming the flag, the file and the problem.
 */
import { readFile } from "node:fs/promises";
import { parseJsonText } from "@ocp/types/internal";
import { loadHubIdentity } from "./hub-identity.js";

/** The signed profiles of an allow-list file: `{"profiles": [...]}` or an array; exits 2 when unreadable. */
export async function readAllowList(path: string): Promise<unknown[]> {
  try {
    const json = parseJsonText(await readFile(path, "utf8"));
    if (!json.ok) throw json.error;
    const value = json.value as { profiles?: unknown } | unknown[];
    const profiles = Array.isArray(value) ? value : value?.profiles;
    if (!Array.isArray(profiles)) throw new Error('expected {"profiles": [...]} or an array');
    return profiles;
  } catch (error) {
    process.stderr.write(
      `ocp-hub: --allow ${path}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(2);
  }
}

/** The hub's identity file (created when absent); exits 2 when it is unsafe or unreadable. */
export async function readIdentity(path: string) {
  try {
    const { identity, created } = await loadHubIdentity(path);
    process.stderr.write(
      `ocp-hub: identity ${identity.id} ${created ? "created in" : "from"} ${path}\n`,
    );
    return identity;
  } catch (error) {
    process.stderr.write(
      `ocp-hub: --identity ${path}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(2);
  }
}
