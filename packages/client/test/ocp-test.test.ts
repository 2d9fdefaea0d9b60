/**
 * Issue 40 / §10.4: the compatibility suite (`ocp-test --agent-cmd`, the
 * package's real CLI in a child process) judges the §10.5 example agent
 * conformant: it registers, answers collective queries, keeps private nodes
 * private, drops forged streams and reports presence.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const example = fileURLToPath(new URL("../example/spec-10-5.mjs", import.meta.url));
const suitePackage = createRequire(import.meta.url).resolve("@ocp/test-suite/package.json");
const ocpTest = join(dirname(suitePackage), "dist", "cli.js");

function run(args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ocpTest, ...args], {
      stdio: ["ignore", "pipe", "ignore"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, stdout }));
  });
}

describe("ocp-test against the §10.5 example", () => {
  it("ocp-test --agent-cmd -- node example/spec-10-5.mjs: conformant, no deciding check failed", async () => {
    const { code, stdout } = await run(["--json", "--agent-cmd", "--", process.execPath, example]);
    const report = JSON.parse(stdout) as {
      conformant: boolean;
      checks: Array<{ name: string; status: string; evidence: string }>;
    };
    const failedChecks = report.checks.filter((check) => check.status === "fail");
    expect(failedChecks, JSON.stringify(failedChecks)).toEqual([]);
    expect(report.checks.find((check) => check.name === "agent-registration")?.status).toBe("pass");
    expect(report.checks.find((check) => check.name === "agent-collective-query")?.status).toBe(
      "pass",
    );
    expect(report.conformant).toBe(true);
    expect(code).toBe(0);
  }, 120_000);
});
