// The CLI habits both demo bins keep (src/cli.mjs), pinned against each bin
// run as a real child: --help/-h and --version/-v answer and exit 0 without
// running the demo, bad usage exits 2 with one line and a hint.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const dir = fileURLToPath(new URL("..", import.meta.url));

export interface CliHabits {
  /** The bin, relative to the app (`bin/team-demo.mjs`). */
  bin: string;
  /** The command's name as its messages print it (`ocp-team-demo`). */
  name: string;
  /** The usage's first line. */
  usage: string;
  /** What else the help must say (the exit codes, the version flag). */
  helpMentions: string;
  /** Bad argument lists and the reason the one-line error must name. */
  badUsage: ReadonlyArray<readonly [readonly string[], string]>;
}

/** Declares the CLI-habit tests of one demo bin. */
export function describeCliHabits({ bin, name, usage, helpMentions, badUsage }: CliHabits): void {
  /** The bin as a real child with `args`; bounded well below the demo's own run time. */
  const demo = (args: readonly string[]) =>
    spawnSync(process.execPath, [bin, ...args], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 20_000,
    });

  describe(`${name} CLI habits (${bin})`, () => {
    it("--help and -h (also after a leading --) print the usage and exit 0 without running the demo", () => {
      for (const args of [["--help"], ["-h"], ["--", "--help"]]) {
        const { status, stdout, stderr } = demo(args);
        expect(status).toBe(0);
        expect(stdout.startsWith(`${usage}\n`), stdout).toBe(true);
        expect(stdout).toContain(helpMentions);
        expect(stdout).not.toContain("==");
        expect(stderr).toBe("");
      }
    });

    it("--version and -v print the package version and exit 0 without running the demo", () => {
      const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
        version: string;
      };
      for (const flag of ["--version", "-v"]) {
        const { status, stdout } = demo([flag]);
        expect(status).toBe(0);
        expect(stdout).toBe(`${pkg.version}\n`);
      }
    });

    it.each(badUsage)(
      "bad usage %j exits 2 with one line and a hint, and runs nothing",
      (args, reason) => {
        const { status, stdout, stderr } = demo(args);
        expect(status).toBe(2);
        expect(stdout).toBe("");
        const lines = stderr.split("\n");
        expect(lines).toHaveLength(3);
        expect(lines[0]?.startsWith(`${name}: `), lines[0]).toBe(true);
        expect(lines[0]).toContain(reason);
        expect(lines[1]).toBe(`run "${name} --help" for usage`);
      },
    );
  });
}
