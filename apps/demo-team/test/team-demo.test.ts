import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { describeCliHabits } from "./cli-habits.js";

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

describeCliHabits({
  bin: "bin/team-demo.mjs",
  name: "ocp-team-demo",
  usage: "Usage: ocp-team-demo [--dashboard]",
  helpMentions: "-v, --version",
  badUsage: [
    [["--bogus"], "Unknown option '--bogus'"],
    [["--", "--dashbord"], "Unknown option '--dashbord'"],
    [["extra"], "Unexpected argument 'extra'"],
  ],
});
