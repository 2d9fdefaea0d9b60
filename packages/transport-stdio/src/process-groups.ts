/**
 * The process groups of every live provider child of this host, killed when
 * the host goes away, whatever the way:
 *
 * - `exit` (the loop ran dry, `process.exit()`, or an uncaught error, which
 *   Node turns into an exit): every group gets SIGKILL, synchronously.
 * - SIGINT, SIGTERM, SIGHUP: if this registry is the only listener, it kills
 *   every group, removes itself and raises the signal again, so the host still
 *   dies of it as it would have without us. When the application listens too,
 *   the application decides whether to exit; if it does, `exit` cleans up.
 *
 * A host killed outright (SIGKILL) runs nothing: then a provider built on
 * `serveStdio` exits because its stdin closes.
 *
 * Handlers are installed while at least one group is tracked, and removed
 * when the last one is gone.
 */

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

const groups = new Set<number>();

/** Sends `signal` to the whole process group led by `pid`; a group already gone is fine. */
export function killGroup(pid: number, signal: NodeJS.Signals = "SIGKILL"): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

function killAll(): void {
  for (const pid of groups) killGroup(pid);
  groups.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  killAll();
  uninstall();
  process.kill(process.pid, signal);
}

function install(): void {
  process.on("exit", killAll);
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

function uninstall(): void {
  process.removeListener("exit", killAll);
  for (const signal of SIGNALS) process.removeListener(signal, onSignal);
}

/** Starts tracking the group led by `pid`. */
export function trackGroup(pid: number): void {
  if (groups.size === 0) install();
  groups.add(pid);
}

/** Stops tracking the group led by `pid` (after it has been killed). */
export function untrackGroup(pid: number): void {
  if (groups.delete(pid) && groups.size === 0) uninstall();
}
