/**
 * `--agent-cmd`: the suite runs its hub, starts the agent as a child in its
 * own process group (the hub's URL in OCP_HUB_URL and in place of `{hub}`),
 * and kills the group at the end; a child that fails shows its stderr tail.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { startAgentCommand } from "../src/agent/command.js";
import { type CompatibilityReport, runCompatibility } from "../src/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const CLI = join(here, "..", "dist", "cli.js");
const FIXTURE = join(here, "..", "dist", "fixture", "agent-cli.js");
const node = process.execPath;
const dir = mkdtempSync(join(tmpdir(), "ocp-test-agent-cmd-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function ocpTest(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(node, [CLI, ...args], { timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

describe("ocp-test --agent-cmd", () => {
  it("the honest fixture agent (hub URL from OCP_HUB_URL) passes every check; exit 0, pure JSON", async () => {
    const { code, stdout } = await ocpTest(["--json", "--agent-cmd", "--", node, FIXTURE]);
    const report = JSON.parse(stdout) as CompatibilityReport;
    expect(report.kind).toBe("agent");
    expect(report.checks.filter((c) => c.status !== "pass")).toEqual([]);
    expect(code).toBe(0);
  }, 120_000);

  it("a misbehaving fixture agent (hub URL through {hub}) is caught by its check; exit 1", async () => {
    const report = await runCompatibility({
      agentCommand: [node, FIXTURE, "--hub", "{hub}", "--misbehave", "accepts-forged-signatures"],
    });
    expect(report.checks.filter((c) => c.status === "fail").map((c) => c.name)).toEqual([
      "agent-signatures",
    ]);
    const { code } = await ocpTest([
      "--only",
      "agent-signatures",
      "--agent-cmd",
      "--",
      node,
      FIXTURE,
      "--misbehave",
      "accepts-forged-signatures",
    ]);
    expect(code).toBe(1);
  }, 120_000);

  it("kills the child's whole process group at the end (a grandchild too)", async () => {
    const pidFile = join(dir, "grandchild.pid");
    const session = await startAgentCommand([
      "/bin/sh",
      "-c",
      `sleep 300 & echo $! > ${pidFile}; exec "${node}" "${FIXTURE}"`,
    ]);
    const grandchild = Number(readFileSync(pidFile, "utf8").trim());
    expect(alive(session.pid!)).toBe(true);
    expect(alive(grandchild)).toBe(true);
    await session.close();
    expect(alive(session.pid!)).toBe(false);
    await expect.poll(() => alive(grandchild), { timeout: 3_000 }).toBe(false);
  }, 30_000);

  it("a command that dies: every check fails with its exit and the tail of its stderr", async () => {
    const report = await runCompatibility(
      { agentCommand: [node, "-e", "console.error('cannot open my key file'); process.exit(3)"] },
      { only: ["agent-registration", "agent-presence"] },
    );
    expect(report.checks.map((c) => c.status)).toEqual(["fail", "fail"]);
    for (const check of report.checks) {
      expect(check.evidence).toContain("exited (code 3)");
      expect(check.evidence).toContain("cannot open my key file");
    }
  }, 30_000);

  it("a command that never registers is given up on, and killed", async () => {
    const started = startAgentCommand(["/bin/sh", "-c", "echo waiting >&2; exec sleep 300"], 1_000);
    await expect(started).rejects.toThrow(/did not register .* within 1000 ms.*waiting/s);
  }, 30_000);

  it("a command that does not exist fails with the reason", async () => {
    await expect(startAgentCommand([join(dir, "no-such-agent")], 5_000)).rejects.toThrow(
      /could not start|ENOENT/,
    );
  }, 30_000);

  it("an agent whose announcement does not verify is refused, and the reason shown", async () => {
    const script = `
      const ws = new (require("ws").WebSocket)(process.env.OCP_HUB_URL, ["a2a-ocp-v1"]);
      ws.on("message", () => ws.send(JSON.stringify({ type: "ocp.hub.announce", payload: {} })));`;
    await expect(startAgentCommand([node, "-e", script], 2_000)).rejects.toThrow(
      /announcement was refused: .+/,
    );
  }, 30_000);

  it("bad usage exits 2", async () => {
    expect((await ocpTest(["--agent-cmd"])).code).toBe(2);
    expect((await ocpTest(["--agent-cmd", "--"])).code).toBe(2);
    expect(
      (await ocpTest(["--hub", "ws://127.0.0.1:9/", "--agent", "ws://127.0.0.1:9/"])).code,
    ).toBe(2);
    expect((await ocpTest(["--agent", "http://127.0.0.1:9/"])).code).toBe(2);
    expect((await ocpTest(["--agent", "ws://127.0.0.1:9/", "--only", "lifecycle"])).code).toBe(2);
    expect((await ocpTest(["--hub", "ws://127.0.0.1:9/", "--only", "agent-vote"])).code).toBe(2);
    expect((await ocpTest(["--agent-id", "a2a://x", "--hub", "ws://127.0.0.1:9/"])).code).toBe(2);
    expect((await ocpTest(["--agent", "ws://127.0.0.1:9/", "--agent-id", "nope"])).code).toBe(2);
  }, 60_000);
});
