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
import { AGENT_CHECK_NAMES, type CompatibilityReport, runCompatibility } from "../src/index.js";

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
    // Advisory, so not among the deciding ones: another agent cannot overwrite an author's node.
    expect(report.checks.find((c) => c.name === "agent-authorship")?.status).toBe("pass");
    // §12.2: reads a compressed stream; the zip bomb is dropped by its HubClient (an error event).
    expect(report.checks.find((c) => c.name === "agent-compression")?.status).toBe("pass");
    // §8.4: it opens what is sealed for it, and a node sealed for it and its author reaches nobody else.
    for (const name of ["agent-sealed-read", "agent-sealed-no-leak"]) {
      expect(report.checks.find((c) => c.name === name)?.status).toBe("pass");
    }
    // Found through the card in its signed profile; anonymous callers refused, signed ones answered.
    const a2a = report.checks.find((c) => c.name === "agent-a2a-fallback");
    expect(a2a?.status).toBe("pass");
    expect(a2a?.evidence).toMatch(/signed profile's agentCard/);
    expect(a2a?.evidence).toMatch(/anonymous search was refused/);
    expect(a2a?.evidence).toMatch(/signed outsider's search found the public node/);
  }, 120_000);

  it("--agent ws:// (listenForPeers): every deciding check passes", async () => {
    // The suite connects fresh agents for every check: the listener admits any valid profile.
    const child = spawn(process.execPath, [SCRIPT, "--allow-any"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("\n")) resolve(out.split("\n")[0]!.trim());
      });
      child.once("exit", (code) => reject(new Error(`the agent exited with ${code}`)));
    });
    const report = await runCompatibility({ agent: url }, { strict: true });
    expect(decidingFailures(report)).toEqual([]);
    expect(report.checks.map((c) => [c.name, c.status])).toEqual(
      AGENT_CHECK_NAMES.map((name) => [name, "pass"]),
    );
  }, 120_000);
});
