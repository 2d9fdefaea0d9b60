/**
 * `ocp-test` as a child process: against our own hub (`ocp-hub`, SQLite)
 * every deciding check passes; usage errors exit 2; --json is pure JSON.
 */
import { execFile, spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompatibilityReport } from "../src/index.js";
import { type HubChild, startHubChild } from "./hub-child.js";

const here = dirname(fileURLToPath(import.meta.url));
const CLI = join(here, "..", "dist", "cli.js");

function ocpTest(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { timeout: 240_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

let hub: HubChild;
let url: string;

beforeAll(async () => {
  hub = await startHubChild("ocp-test-");
  url = hub.url;
}, 60_000);

afterAll(() => hub.stop());

describe("ocp-test", () => {
  it("against our own hub (SQLite, default limits): conformant, exit 0, pure JSON", async () => {
    const { code, stdout } = await ocpTest(["--hub", url, "--json"]);
    const report = JSON.parse(stdout) as CompatibilityReport;
    const failing = report.checks.filter((c) => c.status === "fail");
    expect(failing).toEqual([]);
    expect(report.conformant).toBe(true);
    expect(code).toBe(0);
    expect(report.checks.map((c) => c.name)).toContain("visibility");
    // The authority checks: authorship (advisory) and membership, both passed.
    const authority = report.checks.filter((c) => ["authorship", "membership"].includes(c.name));
    expect(authority.map((c) => [c.name, c.status])).toEqual([
      ["authorship", "pass"],
      ["membership", "pass"],
    ]);
  }, 240_000);

  it("prints the human report with --only, and --skip reports skipped checks", async () => {
    const { code, stdout } = await ocpTest([
      "--hub",
      url,
      "--only",
      "lifecycle,replay",
      "--skip",
      "replay",
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain("✓ lifecycle [§6.2, §6.4]");
    expect(stdout).toContain("– replay");
    expect(stdout).toContain("CONFORMANT");
  }, 120_000);

  it("exits 2 on bad usage, 0 with --help and --version", async () => {
    expect((await ocpTest([])).code).toBe(2);
    expect((await ocpTest(["--hub", "http://x"])).code).toBe(2);
    expect((await ocpTest(["--hub", url, "--only", "nope"])).code).toBe(2);
    expect((await ocpTest(["--hub", url, "--timeout", "0"])).code).toBe(2);
    const help = await ocpTest(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("exit codes");
    const version = await ocpTest(["--version"]);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const fixture = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [join(here, "..", "dist", "fixture", "cli.js"), "--version"],
        (error, stdout) => (error ? reject(error) : resolve(stdout)),
      ),
    );
    expect(fixture).toBe(version.stdout);
  }, 120_000);

  it("every bin: --help exits 0, bad usage exits 2 with one line naming the problem and a hint (not the usage)", () => {
    const bins = {
      "ocp-test": join(here, "..", "dist", "cli.js"),
      "ocp-test-fixture-hub": join(here, "..", "dist", "fixture", "cli.js"),
      "ocp-test-fixture-agent": join(here, "..", "dist", "fixture", "agent-cli.js"),
    };
    for (const [bin, file] of Object.entries(bins)) {
      const run = (...args: string[]) =>
        spawnSync(process.execPath, [file, ...args], {
          encoding: "utf8",
          timeout: 15_000,
          env: { ...process.env, OCP_HUB_URL: "" },
        });
      const help = run("--help");
      expect(help.status, bin).toBe(0);
      expect(help.stdout, bin).toMatch(/usage/);
      const bad = run("--bogus");
      expect(bad.status, bin).toBe(2);
      expect(bad.stdout, bin).toBe("");
      const lines = bad.stderr.split("\n");
      expect(lines, bin).toHaveLength(3);
      expect(lines[0], bin).toMatch(new RegExp(`^${bin}: .*--bogus`));
      expect(lines[1], bin).toBe(`run "${bin} --help" for usage`);
    }
  });

  it("exits 1 against a hub that is not there", async () => {
    const { code, stdout } = await ocpTest([
      "--hub",
      "ws://127.0.0.1:9/",
      "--only",
      "lifecycle",
      "--timeout",
      "5000",
    ]);
    expect(code).toBe(1);
    expect(stdout).toContain("NOT CONFORMANT");
  }, 120_000);
});
