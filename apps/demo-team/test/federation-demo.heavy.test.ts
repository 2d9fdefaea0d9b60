import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const dir = fileURLToPath(new URL("..", import.meta.url));

/** Runs bin/federation-demo.mjs as a real child (two ocp-hub processes, three agent processes). */
function runDemo(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ["bin/federation-demo.mjs"],
      { cwd: dir, timeout: 150_000 },
      (error, stdout, stderr) =>
        resolve({
          code: error === null ? 0 : ((error as { code?: number }).code ?? 1),
          stdout,
          stderr,
        }),
    );
    child.stdin?.end();
  });
}

describe("federation demo (bin/federation-demo.mjs, against dist; issue 44)", () => {
  it("links acme's and globex's hubs and prints a transcript whose every claim held (exit 0)", async () => {
    const { code, stdout, stderr } = await runDemo();
    expect(stderr, stdout).not.toContain("federation demo failed");
    expect(code).toBe(0);
    // The link: each side finds the other's public card through its own hub.
    expect(stdout).toMatch(/alice finds bob's public card through her own hub \(.*globex\/bob.*\)/);
    // What crosses: Bob receives the public fix and the node shared with him.
    expect(stdout).toContain('bob     receives "WebSocket leak fix" from acme/alice');
    expect(stdout).toContain('bob     receives "Staging credentials rotation" from acme/alice');
    // What never does: by every route, checked at bob, in globex's files and in both audit logs.
    expect(stdout).toContain("carol   receives the team node and the workspace node");
    expect(stdout).toMatch(
      /bob {5}received the public marker sent after them, and neither of those/,
    );
    expect(stdout).toContain("globex  its hub's SQLite files hold no byte of either");
    expect(stdout).toContain("federation_withheld");
    expect(stdout).toContain("globex  its audit log: none of them arrived (0 accepted)");
    // A collective query, broadcast and then by name, answered from both organisations within its deadline.
    expect(stdout).toContain('alice   asks everyone: "How do we rotate deploy keys?"');
    expect(stdout).toContain("alice   asks carol (acme) and bob (globex) by name");
    expect(stdout.match(/answer from acme\/carol +"Acme: rotate keys/g)).toHaveLength(2);
    expect(stdout.match(/answer from globex\/bob +"Globex: rotate keys/g)).toHaveLength(2);
    const within = [
      ...stdout.matchAll(/both organisations within (\d+) ms of the (\d+) ms deadline/g),
    ];
    expect(within).toHaveLength(2);
    for (const [, took, deadline] of within)
      expect(Number(took)).toBeLessThanOrEqual(Number(deadline));
    // A hub killed mid-stream: everything acknowledged arrives, nothing twice.
    expect(stdout).toContain("globex  hub killed (SIGKILL) after 10 were acknowledged");
    expect(stdout).toContain("alice   30 of 30 acknowledged by acme's hub");
    expect(stdout).toMatch(/bob {5}reconnected by himself and has all 30, each exactly once/);
    expect(stdout).toMatch(/accepted \d+ of them from acme and none twice/);
    expect(stdout.trimEnd().split("\n").at(-1)).toBe(
      "all agents left; both hubs stopped; temporary files removed",
    );
  }, 180_000);
});
