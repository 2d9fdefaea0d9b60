import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const dir = fileURLToPath(new URL("..", import.meta.url));

/** The bin as a real child with `args` (the full run is test/federation-demo.heavy.test.ts). */
const demo = (args: readonly string[]) =>
  spawnSync(process.execPath, ["bin/federation-demo.mjs", ...args], {
    cwd: dir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 20_000,
  });

describe("ocp-federation-demo CLI habits (bin/federation-demo.mjs)", () => {
  it("--help and -h print the usage with the exit codes and exit 0 without running the demo", () => {
    for (const args of [["--help"], ["-h"], ["--", "--help"]]) {
      const { status, stdout, stderr } = demo(args);
      expect(status).toBe(0);
      expect(stdout).toMatch(/^Usage: ocp-federation-demo\n/);
      expect(stdout).toContain("130 when interrupted");
      expect(stdout).not.toContain("==");
      expect(stderr).toBe("");
    }
  });

  it("--version and -v print the package version and exit 0", () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    for (const flag of ["--version", "-v"]) {
      const { status, stdout } = demo([flag]);
      expect(status).toBe(0);
      expect(stdout).toBe(`${pkg.version}\n`);
    }
  });

  it.each([
    [["--bogus"], "Unknown option '--bogus'"],
    [["extra"], "Unexpected argument 'extra'"],
  ])("bad usage %j exits 2 with one line and a hint, and starts no hub", (args, reason) => {
    const { status, stdout, stderr } = demo(args);
    expect(status).toBe(2);
    expect(stdout).toBe("");
    const lines = stderr.split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^ocp-federation-demo: /);
    expect(lines[0]).toContain(reason);
    expect(lines[1]).toBe('run "ocp-federation-demo --help" for usage');
  });
});
