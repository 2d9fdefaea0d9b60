/**
 * Issue 44, clusters, with the real `ocp-hub` CLI: `--federate` with `--nats`
 * needs `--db` (each hub's copy of the federation tables); exit 2 before any
 * connection.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "@ocp/testkit";
import { expect, it } from "vitest";

const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

it("--federate with --nats but no --db exits 2 naming --db", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const file = join(dir, "fed.json");
    writeFileSync(file, JSON.stringify({ peers: [] }));
    const child = spawn(
      process.execPath,
      [cli, "--nats", "nats://127.0.0.1:9", "--identity", join(dir, "id.key"), "--federate", file],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    let err = "";
    child.stderr!.on("data", (d) => (err += d));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(2);
    expect(err).toContain("--federate with --nats needs --db");
  } finally {
    cleanup();
  }
}, 30_000);
