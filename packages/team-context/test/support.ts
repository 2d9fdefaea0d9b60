import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { hubLink, OCPAgent } from "@ocp/a2a-ocp-agent";
import type { AgentIdentity } from "@ocp/a2a-ocp-messaging";
import { client, identity, within } from "@ocp/testkit";

export const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
export const CLI = join(ROOT, "packages/team-context/dist/cli.js");
export const INSPECT = join(ROOT, "packages/conformance/dist/cli.js");

/** A started agent connected to the hub at `url`. */
export async function teamAgent(url: string, name: string): Promise<OCPAgent> {
  const id: AgentIdentity = identity(name);
  const { client: c } = await client(url, id);
  return new OCPAgent({ identity: id, link: hubLink(c) }).start();
}

/** Runs a command to its end; its exit code, stdout and stderr. */
export function run(
  command: string,
  args: readonly string[],
  timeoutMs = 90_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return within(
    new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr }))),
    timeoutMs,
    `${command} ${args.join(" ")}`,
  );
}

/** Starts `ocp-team-context --http 0 ...`; resolves with its URL once it listens. */
export async function httpProvider(
  args: readonly string[],
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [CLI, "--http", "0", ...args], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const url = await within(
    new Promise<string>((resolve, reject) => {
      child.stderr.on("data", (d) => {
        stderr += d;
        const m = /listening on (\S+)/.exec(stderr);
        if (m?.[1] !== undefined) resolve(m[1]);
      });
      child.on("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    }),
    60_000,
    "the HTTP provider to listen",
  );
  return { url, child };
}
