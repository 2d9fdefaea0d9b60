/**
 * Our own hub (`ocp-hub`, SQLite in a fresh temporary directory) as a real
 * child process, for the tests that run `ocp-test` against it.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const HUB_CLI = join(
  dirname(createRequire(import.meta.url).resolve("@ocp/a2a-ocp-hub/package.json")),
  "dist",
  "cli.js",
);

export interface HubChild {
  /** The URL the hub printed on its first line of output. */
  readonly url: string;
  /** Stops the hub (SIGTERM) and removes its directory. */
  stop(): void;
}

/** Starts `ocp-hub --db <tmp>/hub.sqlite` and waits for the URL it prints; rejects if it exits first. */
export async function startHubChild(prefix: string): Promise<HubChild> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const hub = spawn(process.execPath, [HUB_CLI, "--db", join(dir, "hub.sqlite")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stop = () => {
    hub.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      hub.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const line = out.split("\n")[0];
        if (out.includes("\n") && line) resolve(line.trim());
      });
      hub.once("exit", (code) => reject(new Error(`ocp-hub exited with ${code}`)));
    });
    return { url, stop };
  } catch (error) {
    stop();
    throw error;
  }
}
