/**
 * Our own agent runtime (`@ocp/a2a-ocp-agent` serving A2A with
 * `@ocp/a2a-compat`, the dev script `test/own-agent.mjs`) passes every
 * agent check, `agent-a2a-fallback` included, both as an agent the suite
 * starts (`--agent-cmd`, joining the suite's hub) and as a listening agent
 * (`--agent ws://`, `listenForPeers`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { type CompatibilityReport, runCompatibility } from "../src/index.js";

const SCRIPT = fileURLToPath(new URL("./own-agent.mjs", import.meta.url));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGTERM");
});

function decidingFailures(report: CompatibilityReport) {
  return report.checks.filter((c) => c.status === "fail" && !c.advisory);
}

describe("our agent runtime", () => {
  it("--agent-cmd: every deciding check passes, the vote included", async () => {
    const report = await runCompatibility({ agentCommand: [process.execPath, SCRIPT] });
    expect(decidingFailures(report)).toEqual([]);
    expect(report.conformant).toBe(true);
    expect(report.checks.find((c) => c.name === "agent-vote")?.status).toBe("pass");
  }, 120_000);

  it("--agent ws:// (listenForPeers): every deciding check passes", async () => {
    const child = spawn(process.execPath, [SCRIPT], { stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("\n")) resolve(out.split("\n")[0]!.trim());
      });
      child.once("exit", (code) => reject(new Error(`the agent exited with ${code}`)));
    });
    const report = await runCompatibility({ agent: url });
    expect(decidingFailures(report)).toEqual([]);
    expect(report.checks.every((c) => c.status === "pass")).toBe(true);
  }, 120_000);
});
