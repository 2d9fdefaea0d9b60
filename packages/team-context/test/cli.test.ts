import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CLI, run } from "./support.js";

/** The built `ocp-team-context` as a real child, with `args`. */
const cli = (args: readonly string[]) => run(process.execPath, [CLI, ...args], 30_000);
const HINT = 'run "ocp-team-context --help" for usage';

describe("ocp-team-context CLI habits", () => {
  it("--help and -h print the usage on stdout and exit 0", async () => {
    for (const flag of ["--help", "-h"]) {
      const { code, stdout, stderr } = await cli([flag]);
      expect(code).toBe(0);
      expect(stdout).toContain("ocp-team-context");
      expect(stdout).toContain("--hub URL");
      expect(stderr).toBe("");
    }
  });

  it("--version and -v print the package version and exit 0", async () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    for (const flag of ["--version", "-v"]) {
      const { code, stdout } = await cli([flag]);
      expect(code).toBe(0);
      expect(stdout).toBe(`${pkg.version}\n`);
    }
  });

  it.each([
    [["--bogus"], "Unknown option '--bogus'"],
    [[], "--hub URL is required"],
    [["--hub", "ws://127.0.0.1:9/"], "--identity FILE is required"],
    [
      ["--hub", "http://x/", "--identity", "id.json"],
      '--hub takes a ws:// or wss:// URL, not "http://x/"',
    ],
    [
      ["--hub", "ws://x/", "--identity", "id.json", "--deadline-ms", "0"],
      "--deadline-ms takes a whole number from 1",
    ],
    [
      ["--hub", "ws://x/", "--identity", "id.json", "--http", "-1"],
      "Option '--http' argument is ambiguous",
    ],
  ])(
    "bad usage %j exits 2 with one line naming the problem and a hint, not the usage",
    async (args, reason) => {
      const { code, stdout, stderr } = await cli(args);
      expect(code).toBe(2);
      expect(stdout).toBe("");
      const lines = stderr.split("\n");
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatch(/^ocp-team-context: /);
      expect(lines[0]).toContain(reason);
      expect(lines[1]).toBe(HINT);
      expect(lines[2]).toBe("");
    },
  );
});
