/**
 * A hub identity that survives restarts (`ocp-hub --identity FILE`): an
 * a2a+ocp identity file (`@ocp/a2a-ocp-messaging/node` `saveIdentity`),
 * created with mode 0600 when absent. A key file that anyone but its owner
 * may read or write is refused, as ssh refuses one: the key signs every
 * `capability.confirm` and event notification the hub sends.
 */
import { lstat } from "node:fs/promises";
import type { AgentIdentity } from "@ocp/a2a-ocp-messaging";
import { generateIdentity } from "@ocp/a2a-ocp-messaging";
import { loadIdentity, saveIdentity } from "@ocp/a2a-ocp-messaging/node";
import { hubError } from "./errors.js";
import { DEFAULT_HUB_ID } from "./hub-self.js";

/** Permission bits of group and others: a key file must have none of them. */
const GROUP_OR_OTHERS = 0o077;

/**
 * The identity in `path`, or a new one (`id`, `DEFAULT_HUB_ID` by
 * default) saved there with mode 0600. Throws `invalid_option` for a file
 * that is not a regular file, that group or others may access, or that is
 * not an identity file.
 */
export async function loadHubIdentity(
  path: string,
  options: { id?: string; platform?: NodeJS.Platform } = {},
): Promise<{ identity: AgentIdentity; created: boolean }> {
  let stats: Awaited<ReturnType<typeof lstat>>;
  try {
    stats = await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      throw hubError("invalid_option", `cannot read the hub identity ${path}`, {
        cause: error,
      });
    }
    const identity = generateIdentity(options.id ?? DEFAULT_HUB_ID);
    await saveIdentity(path, identity);
    return { identity, created: true };
  }
  if (!stats.isFile()) {
    throw hubError("invalid_option", `the hub identity ${path} is not a regular file`);
  }
  // POSIX permissions only: Windows reports no group/other bits to check.
  if ((options.platform ?? process.platform) !== "win32" && (stats.mode & GROUP_OR_OTHERS) !== 0) {
    const mode = (stats.mode & 0o777).toString(8).padStart(3, "0");
    throw hubError(
      "invalid_option",
      `the hub identity ${path} is accessible to others (mode ${mode}): it holds the hub's secret key; chmod 600 it`,
      { details: { path, mode } },
    );
  }
  try {
    return { identity: await loadIdentity(path), created: false };
  } catch (cause) {
    throw hubError("invalid_option", `${path} is not an a2a+ocp identity file`, { cause });
  }
}
