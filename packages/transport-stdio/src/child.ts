import { type ChildProcess, spawn } from "node:child_process";

/** The command line of a provider child and the environment it gets. */
export interface ChildCommand {
  readonly command: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  /**
   * Variables the child gets besides `PATH` and `HOME` (taken from the host).
   * Nothing else of the host's environment reaches the child.
   */
  readonly env?: Readonly<Record<string, string>>;
}

/** PATH and HOME of the host, plus what the caller names: the child's whole environment. */
export function scrubbedEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  if (process.env.PATH !== undefined) env.PATH = process.env.PATH;
  if (process.env.HOME !== undefined) env.HOME = process.env.HOME;
  return { ...env, ...extra };
}

/**
 * Starts a child as `spawnStdioProvider` does: leader of a process group of
 * its own (so {@link killGroup} reaches whatever it starts), with the
 * scrubbed environment (`scrubbedEnv`) and pipes on stdin, stdout and
 * stderr. Pair it with `trackGroup` so the group never outlives this process.
 */
export function spawnInGroup(child: ChildCommand): ChildProcess {
  return spawn(child.command, child.args ?? [], {
    cwd: child.cwd,
    env: scrubbedEnv(child.env),
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
    windowsHide: true,
  });
}
