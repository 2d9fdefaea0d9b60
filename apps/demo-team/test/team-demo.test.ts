import { execFile, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const dir = fileURLToPath(new URL("..", import.meta.url));

describe("team demo (bin/team-demo.mjs, against dist)", () => {
  it("runs a hub and four agent processes through the scenario, prints the transcript and exits 0", async () => {
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>(
      (resolve) => {
        const child = execFile(
          process.execPath,
          ["bin/team-demo.mjs"],
          { cwd: dir, timeout: 90_000 },
          (error, out) =>
            resolve({
              code: error === null ? 0 : ((error as { code?: number }).code ?? 1),
              stdout: out,
            }),
        );
        child.stdin?.end();
      },
    );
    expect(code).toBe(0);
    expect(stdout).toContain('bob     receives "WebSocket memory leak fix" from a2a://alice');
    expect(stdout).toMatch(
      /consensus: Authentication uses short-lived JWT access tokens \(a2a:\/\/bob, a2a:\/\/carol\)/,
    );
    expect(stdout).toMatch(
      /learns: achieved approved \(2 approve, 1 reject, 0 abstain\); signed votes verified: true/,
    );
    expect(stdout).toContain("a2a://carol is blocked");
    // §8.4: the private fix reaches bob only, and the hub's SQLite files hold none of it.
    expect(stdout).toContain('bob     receives "Rotate the leaked deploy key"');
    expect(stdout).toContain("carol   does not have it");
    expect(stdout).toContain("hub     stored the fix as ciphertext");
    expect(stdout).toContain("temporary files removed");
  }, 120_000); // above the demo's own 90 s bound
});

describe("ocp-team-demo CLI habits (bin/team-demo.mjs)", () => {
  /** The bin as a real child with `args`; bounded well below the demo's own run time. */
  const demo = (args: readonly string[]) =>
    spawnSync(process.execPath, ["bin/team-demo.mjs", ...args], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 20_000,
    });

  it("--help and -h print the usage and exit 0 without running the demo", () => {
    for (const args of [["--help"], ["-h"], ["--", "--help"]]) {
      const { status, stdout, stderr } = demo(args);
      expect(status).toBe(0);
      expect(stdout).toMatch(/^Usage: ocp-team-demo \[--dashboard\]\n/);
      expect(stdout).toContain("-v, --version");
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

  it.each([
    [["--bogus"], "Unknown option '--bogus'"],
    [["--", "--dashbord"], "Unknown option '--dashbord'"],
    [["extra"], "Unexpected argument 'extra'"],
  ])("bad usage %j exits 2 with one line and a hint, and runs nothing", (args, reason) => {
    const { status, stdout, stderr } = demo(args);
    expect(status).toBe(2);
    expect(stdout).toBe("");
    const lines = stderr.split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^ocp-team-demo: /);
    expect(lines[0]).toContain(reason);
    expect(lines[1]).toBe('run "ocp-team-demo --help" for usage');
  });
});
