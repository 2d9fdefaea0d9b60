import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * Issue 41 §3: a browser agent pays for what it uses. The bundle bench
 * (`bench/bundle.bench.mjs`, run here as `pnpm bench` runs it, against dist)
 * bundles a create+sign+verify program with esbuild for the browser; the
 * browser entry's must stay within the goal the bench states, and load no
 * zod. Sizes, not timings: they do not depend on the machine.
 */

const packageDir = fileURLToPath(new URL("..", import.meta.url));

interface Figure {
  name: string;
  raw: number;
  gzip: number;
  zod: number;
  goal?: number;
}

function benchFigures(): Map<string, Figure> {
  const out = execFileSync(
    process.execPath,
    [join(packageDir, "bench/bundle.bench.mjs"), "--json"],
    {
      cwd: packageDir,
      encoding: "utf8",
      timeout: 120_000,
    },
  );
  return new Map((JSON.parse(out) as Figure[]).map((figure) => [figure.name, figure]));
}

describe("the browser bundle's size (bench/bundle.bench.mjs)", () => {
  it("a program that creates, signs and verifies messages with ./browser bundles to at most 40 KB gzipped, with no zod in it", {
    timeout: 120_000,
  }, () => {
    const figures = benchFigures();
    const small = figures.get("./browser: create+sign+verify")!;
    expect(small.goal).toBe(40 * 1024);
    expect(small.zod).toBe(0);
    expect(small.gzip).toBeLessThanOrEqual(small.goal!);
    expect(figures.get("./browser: whole entry")!.zod).toBe(0);
    // The same program against the root entry carries zod and misses the goal: what the
    // browser entry exists for (and proof the bench measures what it says).
    const full = figures.get("root: create+sign+verify")!;
    expect(full.zod).toBeGreaterThan(100 * 1024);
    expect(full.gzip).toBeGreaterThan(small.goal!);
    expect(figures.get("@noble/ed25519 alone")!.gzip).toBeLessThan(small.gzip);
  });
});
