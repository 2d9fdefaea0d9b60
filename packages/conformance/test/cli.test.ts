import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { ConformanceReport } from "../src/index.js";
import { fixtureCommand } from "../src/internal.js";
import { startHttpFixture } from "./helpers.js";
import { inspect } from "./inspect.js";

const FIXTURE = fixtureCommand().args[0]!;

describe("ocp-inspect", () => {
  it("prints what the README's example shows (only the shutdown time differs)", async () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const start = readme.indexOf('$ npx ocp-inspect stdio --query "retry loop"');
    const shown = readme.slice(readme.indexOf("\n", start) + 1, readme.indexOf("$ echo $?", start));
    const root = fileURLToPath(new URL("..", import.meta.url));
    const { code, stdout } = await inspect(
      ["stdio", "--query", "retry loop", "--", "node", "dist/fixture/cli.js"],
      { cwd: root },
    );
    const normalise = (text: string) => text.replace(/within \d+ ms/, "within N ms");
    expect(code).toBe(0);
    expect(normalise(stdout)).toBe(normalise(shown));
  });

  it("--help documents the commands, options and exit codes, and exits 0", async () => {
    const { code, stdout } = await inspect(["--help"]);
    expect(code).toBe(0);
    for (const text of [
      "ocp-inspect stdio",
      "ocp-inspect http",
      "ocp-inspect host",
      "--query",
      "--json",
      "--strict",
      "exit codes",
      "2  bad usage",
    ]) {
      expect(stdout).toContain(text);
    }
  });

  it.each([
    [[], "missing command"],
    [["stdio", "node", "x.js"], "put the provider command after --"],
    [["--bogus"], 'unknown command "--bogus"'],
    [["stdio", "--bogus", "--", "node", "x.js"], "unknown option --bogus for stdio"],
    [["http", "ftp://example.com/"], "not an http(s) URL"],
  ])(
    "bad usage %j exits 2 with one line naming the problem and a hint, not the usage",
    async (args, reason) => {
      const { code, stdout, stderr } = await inspect(args);
      expect(code).toBe(2);
      expect(stdout).toBe("");
      const lines = stderr.split("\n");
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatch(/^ocp-inspect: /);
      expect(lines[0]).toContain(reason);
      expect(lines[1]).toBe('run "ocp-inspect --help" for usage');
      expect(lines[2]).toBe("");
    },
  );

  describe("ocp-fixture-provider", () => {
    const run = (args: readonly string[]) =>
      spawnSync(process.execPath, [FIXTURE, ...args], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
        timeout: 30_000,
      });

    it("--help and -h print the usage and exit 0", () => {
      for (const flag of ["--help", "-h"]) {
        const { status, stdout, stderr } = run([flag]);
        expect(status).toBe(0);
        expect(stdout).toMatch(/^usage: ocp-fixture-provider /);
        expect(stdout).toContain("--misbehave MODE");
        expect(stderr).toBe("");
      }
    });

    it("--version and -v print the package version and exit 0", () => {
      const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
      for (const flag of ["--version", "-v"]) {
        const { status, stdout } = run([flag]);
        expect(status).toBe(0);
        expect(stdout).toBe(`${(pkg as { version: string }).version}\n`);
      }
    });

    it.each([
      [["--bogus"], "unknown argument: --bogus"],
      [["--misbehave", "nonsense"], "unknown --misbehave mode: nonsense"],
    ])("bad usage %j exits 2 with one line and a hint, not the usage", (args, reason) => {
      const { status, stdout, stderr } = run(args);
      expect(status).toBe(2);
      expect(stdout).toBe("");
      expect(stderr).toBe(
        `ocp-fixture-provider: ${reason}\nrun "ocp-fixture-provider --help" for usage\n`,
      );
    });
  });

  it("stdio --json against the honest fixture prints only the JSON report and exits 0", async () => {
    const { code, stdout } = await inspect(["stdio", "--json", "--", process.execPath, FIXTURE]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as ConformanceReport;
    expect(report.conformant).toBe(true);
    expect(report.checks).toHaveLength(11);
    expect(report.checks.every((check) => check.status === "pass")).toBe(true);
  });

  it("prints identity, data flow, capabilities, the query's frames, ✓ checks and the verdict", async () => {
    const { code, stdout } = await inspect([
      "stdio",
      "--query",
      "retry loop",
      "--",
      process.execPath,
      FIXTURE,
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain("provider     ocp-fixture-provider v1.0.0 — ocp/1.0-draft");
    expect(stdout).toContain("data-flow    reads=true writes=false egress=false");
    expect(stdout).toContain("capabilities kinds=[doc, snippet]");
    expect(stdout).toContain("query “retry loop” (max_tokens 4096, max_frames 8): 3 frame(s)");
    expect(stdout).toContain("[0.74] retry.ts L20-23  retry loop  snippet · 36 tok");
    expect(stdout).toContain("✓ budget-honesty [B1]");
    expect(stdout).toMatch(/CONFORMANT — 11 passed, 0 skipped\n$/);
  });

  it("B1: a lying provider gets ✗ with evidence and exit code 1", async () => {
    const { code, stdout } = await inspect([
      "stdio",
      "--",
      process.execPath,
      FIXTURE,
      "--misbehave",
      "lying-costs",
    ]);
    expect(code).toBe(1);
    expect(stdout).toContain("✗ budget-honesty [B1]");
    expect(stdout).toContain("B1: 3 frame(s) declare 299997 tokens, over max_tokens 4096");
    expect(stdout).toMatch(/NOT CONFORMANT — 1 failed, 10 passed, 0 skipped\n$/);
  });

  it("K1 is advisory: exit 0 by default, exit 1 under --strict", async () => {
    const args = ["--", process.execPath, FIXTURE, "--misbehave", "wrong-kind"];
    const lenient = await inspect(["stdio", ...args]);
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toContain("✗ kinds-filter [K1] (advisory)");
    const strict = await inspect(["stdio", "--strict", ...args]);
    expect(strict.code).toBe(1);
  });

  it("http --json URL runs the suite over HTTP", async () => {
    const server = await startHttpFixture();
    try {
      const { code, stdout } = await inspect(["http", "--json", server.url]);
      expect(code).toBe(0);
      const report = JSON.parse(stdout) as ConformanceReport;
      expect(report.transport).toBe("http");
      expect(report.conformant).toBe(true);
    } finally {
      await server.stop();
    }
  });

  it("host --json runs the host-side harness against @ocp/host and exits 0", async () => {
    const { code, stdout } = await inspect(["host", "--json"]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as ConformanceReport;
    expect(report.checks.map((check) => `${check.name}:${check.status}`)).toEqual([
      "host-version-reject:pass",
      "host-budget-drop:pass",
      "host-consent-gate:pass",
      "host-http-egress:pass",
      "host-content-fencing:pass",
      "host-crash-isolation:pass",
    ]);
  });

  it("--version prints the package version", async () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    for (const flag of ["--version", "-v"]) {
      const { code, stdout } = await inspect([flag]);
      expect(code).toBe(0);
      expect(stdout).toBe(`${(pkg as { version: string }).version}\n`);
    }
  });

  it("--timeout bounds the H3 probe too: a provider silent on a foreign version is failed after it", async () => {
    const { code, stdout } = await inspect([
      "stdio",
      "--json",
      "--timeout",
      "1500",
      "--",
      "node",
      FIXTURE,
      "--misbehave",
      "silent-on-mismatch",
    ]);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as ConformanceReport;
    const h3 = report.checks.find((check) => check.name === "version-mismatch");
    expect(h3?.evidence).toMatch(/^H3: silent for 1500 ms after a handshake of ocp\/99\.0/);
  }, 30_000);

  it("--max-tokens sets the probe query's budget", async () => {
    const { code, stdout } = await inspect([
      "stdio",
      "--json",
      "--max-tokens",
      "40",
      "--",
      "node",
      FIXTURE,
    ]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as ConformanceReport;
    expect(report.probe?.max_tokens).toBe(40);
    const total = (report.probe?.frames ?? []).reduce((n, f) => n + f.token_cost, 0);
    expect(total).toBeLessThanOrEqual(40);
  }, 30_000);

  it("a provider that cannot be started fails the handshake with the reason, exit 1", async () => {
    const { code, stdout } = await inspect(["stdio", "--", "/nonexistent/ocp-provider"]);
    expect(code).toBe(1);
    expect(stdout).toContain("✗ handshake [H1, H2]");
    expect(stdout).toContain("cannot start /nonexistent/ocp-provider");
    expect(stdout).toContain("– version-mismatch [H3]");
    expect(stdout).toMatch(/NOT CONFORMANT — 1 failed, 0 passed, 10 skipped\n$/);
  });
});
