/**
 * `ocp-team-context` given bad input (a real child each time): an identity
 * it cannot use, a port out of range, a hub that never answers. One line
 * naming the problem and exit 2, never a stack trace; never a hang.
 */
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { saveIdentity } from "@ocp/a2a-ocp-messaging/node";
import { identity, tempDir, within } from "@ocp/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { CLI, run } from "./support.js";

const tmp = tempDir("ocp-team-cli-");
afterAll(() => tmp.cleanup());
const cli = (args: readonly string[]) => run(process.execPath, [CLI, ...args], 30_000);
const HUB = ["--hub", "ws://127.0.0.1:9/"];

async function expectUsage(args: readonly string[], reason: string): Promise<void> {
  const { code, stdout, stderr } = await cli(args);
  expect(code).toBe(2);
  expect(stdout).toBe("");
  const lines = stderr.split("\n");
  expect(lines, stderr).toHaveLength(3);
  expect(lines[0]).toMatch(/^ocp-team-context: /);
  expect(lines[0]).toContain(reason);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe("ocp-team-context refuses what it cannot use", () => {
  it("an --agent-id that is not an a2a:// URI is bad usage, and no identity file is written", async () => {
    const file = join(tmp.dir, "never.json");
    await expectUsage([...HUB, "--identity", file, "--agent-id", "not-a-uri"], "--agent-id");
    expect(existsSync(file)).toBe(false);
    await expectUsage([...HUB, "--identity", file], "does not exist: give --agent-id");
  });

  it("an identity file holding another agent, or not an identity at all, is bad usage", async () => {
    const file = join(tmp.dir, "alice.json");
    const alice = identity("alice");
    await saveIdentity(file, alice);
    await expectUsage(
      [...HUB, "--identity", file, "--agent-id", "a2a://mallory"],
      `holds ${alice.id}, not a2a://mallory`,
    );
    const garbage = join(tmp.dir, "garbage.json");
    writeFileSync(garbage, "{not an identity");
    await expectUsage([...HUB, "--identity", garbage], "is not an identity file");
  });

  it("--http past 65535 and --team-wait-ms that is not whole are bad usage", async () => {
    const file = join(tmp.dir, "id.json");
    await expectUsage(
      [...HUB, "--identity", file, "--http", "70000"],
      "--http takes a port number",
    );
    await expectUsage(
      [...HUB, "--identity", file, "--team-wait-ms", "1.5"],
      "--team-wait-ms takes a whole number from 1",
    );
  });
});

describe("ocp-team-context and a hub that never answers", () => {
  it("stdin ending while the join is still under way ends the process instead of hanging on the join", async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as { port: number };
    const file = join(tmp.dir, "waiting.json");
    await saveIdentity(file, identity("waiting"));
    const child = spawn(
      process.execPath,
      [CLI, "--hub", `ws://127.0.0.1:${port}/`, "--identity", file],
      { stdio: ["pipe", "pipe", "pipe"] },
    );
    try {
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      await within(
        new Promise<void>((resolve) => silent.once("connection", () => resolve())),
        20_000,
        "the provider dialling the hub",
      );
      child.stdin.end();
      const code = await within(exited, 15_000, "the provider to exit");
      expect(code).not.toBeNull();
    } finally {
      child.kill("SIGKILL");
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 45_000);
});
