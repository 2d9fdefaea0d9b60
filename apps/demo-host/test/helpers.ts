import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const hostCli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
export const providerCli = fileURLToPath(
  new URL("../../demo-provider/dist/cli.js", import.meta.url),
);

/**
 * Starts the demo provider's CLI over HTTP on a free loopback port and
 * resolves once it says where it listens (its own start-up bound is the
 * test's hook timeout).
 */
export function startHttpProvider(
  args: readonly string[],
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [providerCli, "--http", "0", ...args], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let seen = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(seen);
      if (match?.[1]) resolve({ child, url: match[1] });
    });
    child.once("exit", (code) => reject(new Error(`HTTP provider exited with ${code}: ${seen}`)));
  });
}
