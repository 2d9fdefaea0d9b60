/**
 * `--agent-cmd -- <command> [args…]`: the suite starts a harness hub, then
 * the agent as a child process, and waits for it to register.
 *
 * The command learns the hub's URL two ways: the environment variable
 * `OCP_HUB_URL`, and every `{hub}` in its arguments, replaced by the URL.
 * The child runs in its own process group; at the end the suite sends
 * SIGTERM to that group (by the child's pid), then SIGKILL after
 * {@link CHILD_KILL_GRACE_MS}. The tail of its stderr is quoted in failures.
 */
import { type ChildProcess, spawn } from "node:child_process";
import {
  AGENT_START_TIMEOUT_MS,
  CHILD_KILL_GRACE_MS,
  STDERR_QUOTE_CHARS,
  STDERR_TAIL_CHARS,
} from "../limits.js";
import { startAgentHarness } from "./harness.js";
import type { AgentSession } from "./session.js";

/** The environment variable that carries the harness hub's URL to the command. */
export const HUB_URL_ENV = "OCP_HUB_URL";
/** Replaced by the harness hub's URL in the command's arguments. */
export const HUB_PLACEHOLDER = "{hub}";

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      process.kill(child.pid, signal);
    } catch {}
  }
}

/** Starts `command` against a harness hub; throws (with its stderr tail) when it never registers. */
export async function startAgentCommand(
  command: readonly string[],
  timeoutMs = AGENT_START_TIMEOUT_MS,
): Promise<AgentSession & { readonly pid: number | undefined }> {
  if (command.length === 0) throw new Error("--agent-cmd needs a command");
  const harness = await startAgentHarness();
  const [file, ...args] = command.map((part) => part.replaceAll(HUB_PLACEHOLDER, harness.url));
  let stderr = "";
  let exited: string | undefined;
  let onExit: (reason: string) => void = () => undefined;
  const stopped = new Promise<string>((resolve) => {
    onExit = resolve;
  });
  const child = spawn(file!, args, {
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, [HUB_URL_ENV]: harness.url },
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL_CHARS);
  });
  child.once("error", (error) => {
    exited = `could not start ${file}: ${error.message}`;
    onExit(exited);
  });
  child.once("exit", (code, signal) => {
    exited = `the agent command exited (${signal ?? `code ${code}`})`;
    onExit(exited);
  });
  const tail = () => {
    const text = stderr.trim().slice(-STDERR_QUOTE_CHARS);
    return text === "" ? "" : ` — agent stderr (tail): ${text}`;
  };
  const stop = async () => {
    if (exited === undefined) {
      killGroup(child, "SIGTERM");
      const gone = await Promise.race([
        stopped.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), CHILD_KILL_GRACE_MS)),
      ]);
      if (!gone) killGroup(child, "SIGKILL");
    }
    await harness.close();
  };
  let agent: Awaited<ReturnType<typeof harness.registered>>;
  try {
    agent = await harness.registered(stopped, timeoutMs);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}${tail()}`);
  }
  return {
    pid: child.pid,
    agentId: agent.agentId,
    agentKey: agent.agentKey,
    agentProfile: agent.profile,
    reached: `started \`${command.join(" ")}\` (pid ${child.pid}); it registered at the suite's hub as ${agent.agentId} with a signed announcement over the nonce`,
    tester: async (identity) => harness.tester(identity),
    diagnostics: () => `${exited === undefined ? "" : ` (${exited})`}${tail()}`,
    close: stop,
  };
}
