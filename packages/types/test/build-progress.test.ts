import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * scripts/build-progress.mjs, the build step of `pnpm demo`, `demo:team` and
 * `demo:team-context`: one line per finished package and the elapsed time,
 * instead of minutes of silence.
 */
const root = fileURLToPath(new URL("../../..", import.meta.url));
const script = join(root, "scripts", "build-progress.mjs");
const { BuildProgress, HEARTBEAT_MS, elapsed } = (await import(pathToFileURL(script).href)) as {
  BuildProgress: new (options: {
    print: (line: string) => void;
    printError?: (line: string) => void;
    now?: () => number;
    total?: number;
  }) => { line(raw: string): void; tick(): void; end(status: number): void };
  HEARTBEAT_MS: number;
  elapsed: (ms: number) => string;
};

function feed(lines: string[], status: number, clock: number[] = []) {
  const out: string[] = [];
  const err: string[] = [];
  let t = 0;
  const progress = new BuildProgress({
    print: (line) => out.push(line),
    printError: (line) => err.push(line),
    now: () => t,
  });
  lines.forEach((line, at) => {
    t = clock[at] ?? t;
    progress.line(line);
    progress.tick();
  });
  progress.end(status);
  return { out, err };
}

describe("build progress (scripts/build-progress.mjs)", () => {
  it("the demo scripts build through it, not through turbo's silent errors-only logs", () => {
    const { scripts } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    const runDemo = readFileSync(join(root, "scripts", "run-demo.sh"), "utf8");
    for (const name of ["demo", "demo:team", "demo:team-context"]) {
      expect(scripts[name], name).toMatch(/^sh scripts\/run-demo\.sh /);
    }
    expect(runDemo).toContain("node scripts/build-progress.mjs");
    expect(runDemo).not.toContain("--output-logs=errors-only");
  });

  it("prints the package count, one line per finished package with the elapsed time, and the total", () => {
    const { out, err } = feed(
      [
        "   • Running build in 3 packages",
        "@ocp/types:build: cache hit, replaying logs 6c40ada7740e8ee3",
        "@ocp/types:build: $ tsc -p tsconfig.build.json",
        "@ocp/host:build: cache miss, executing d5f227d3c17de4ba",
        "@ocp/host:build: $ tsc -p tsconfig.build.json",
        "@ocp/demo:build: cache miss, executing 0123456789abcdef",
        " Tasks:    3 successful, 3 total",
      ],
      0,
      [0, 1_000, 1_000, 41_000, 41_000, 125_000, 125_000],
    );
    expect(out).toEqual([
      "build: 3 packages",
      "build: @ocp/types done, from cache (1/3, 41s)",
      "build: @ocp/host done (2/3, 2m05s)",
      "build: @ocp/demo done (3/3, 2m05s)",
      "build: 3 packages in 2m05s (1 from cache)",
    ]);
    expect(err).toEqual([]);
  });

  it("a failed build shows the failed package's output and turbo's errors in full, on stderr", () => {
    const { out, err } = feed(
      [
        "   • Running build in 2 packages",
        "@ocp/types:build: cache hit, replaying logs 6c40ada7740e8ee3",
        "@ocp/host:build: cache miss, executing d5f227d3c17de4ba",
        "@ocp/host:build: src/index.ts(3,1): error TS2304: Cannot find name 'nope'.",
        "@ocp/host:build: ERROR: command finished with error: command exited (2)",
        " ERROR  run failed: command  exited (2)",
      ],
      2,
    );
    expect(out).toEqual(["build: 2 packages", "build: @ocp/types done, from cache (1/2, 0s)"]);
    expect(err).toContain(
      "@ocp/host:build: src/index.ts(3,1): error TS2304: Cannot find name 'nope'.",
    );
    expect(err).toContain(" ERROR  run failed: command  exited (2)");
    expect(err.at(-1)).toBe("build: failed after 0s (1 packages done)");
  });

  it("counts the builds of turbo's plan when given, not turbo's banner (which counts packages without a build)", () => {
    const out: string[] = [];
    const progress = new BuildProgress({ print: (line) => out.push(line), now: () => 0, total: 2 });
    progress.line("   • Running build in 4 packages");
    progress.line("@ocp/types:build: cache hit, replaying logs 6c40ada7740e8ee3");
    progress.end(0);
    expect(out).toEqual([
      "build: 2 packages",
      "build: @ocp/types done, from cache (1/2, 0s)",
      "build: 1 package in 0s (1 from cache)",
    ]);
  });

  it("says it is still building when no package finished for HEARTBEAT_MS", () => {
    const out: string[] = [];
    let t = 0;
    const progress = new BuildProgress({ print: (line) => out.push(line), now: () => t });
    progress.line("   • Running build in 2 packages");
    for (t = 1_000; t <= HEARTBEAT_MS * 2 + 1_000; t += 1_000) progress.tick();
    expect(out).toEqual([
      "build: 2 packages",
      `build: still building, 0/2 done (${elapsed(HEARTBEAT_MS)})`,
      `build: still building, 0/2 done (${elapsed(HEARTBEAT_MS * 2)})`,
    ]);
  });

  it("formats elapsed time as seconds, then minutes and seconds; heartbeats are finite", () => {
    expect([elapsed(400), elapsed(41_000), elapsed(225_000)]).toEqual(["0s", "41s", "3m45s"]);
    expect(HEARTBEAT_MS).toBeGreaterThan(0);
    expect(Number.isFinite(HEARTBEAT_MS)).toBe(true);
  });

  it("run for real on a tiny turbo filter, it prints a line for each package it builds and exits 0", () => {
    const result = spawnSync(process.execPath, [script, "--filter=@ocp/types"], {
      cwd: root,
      encoding: "utf8",
      timeout: 240_000,
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" },
    });
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines[0]).toBe("build: 1 package");
    expect(lines).toContainEqual(
      expect.stringMatching(/^build: @ocp\/types done(, from cache)? \(1\/1, \d+s\)$/),
    );
    expect(lines.at(-1)).toMatch(/^build: 1 package in (\d+m)?\d+s/);
  }, 300_000);

  it("a filter naming no package exits non-zero with turbo's reason on stderr", () => {
    const result = spawnSync(process.execPath, [script, "--filter=@ocp/no-such-package"], {
      cwd: root,
      encoding: "utf8",
      timeout: 120_000,
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" },
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("No package found with name '@ocp/no-such-package'");
    expect(result.stderr).toMatch(/build: failed after/);
  }, 180_000);
});
