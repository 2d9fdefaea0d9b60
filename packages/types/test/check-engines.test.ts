import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

/**
 * scripts/check-engines.mjs (run by scripts/check-packages.mjs): no runtime
 * dependency of a published package declares an `engines.node` range that
 * leaves out a Node version the package admits, except the gaps it lists
 * with a reason. Checked on the workspace's installed tree and on small
 * trees written here.
 */
const root = fileURLToPath(new URL("../../..", import.meta.url));
type Known = Record<string, { leftOut: string; via: string; why: string }>;
const engines = (await import(pathToFileURL(join(root, "scripts", "check-engines.mjs")).href)) as {
  firstVersionLeftOut: (ours: string, theirs: string) => string | undefined;
  checkEnginesOf: (dirs: string[], known?: Known) => { problems: string[] };
  KNOWN_ENGINE_GAPS: Known;
};
const { publishedPackages } = (await import(
  pathToFileURL(join(root, "scripts", "check-packages.mjs")).href
)) as { publishedPackages: (root: string) => string[] };

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Writes a package (and its node_modules) from `{ "path": manifest }`. */
function tree(packages: Record<string, Record<string, unknown>>): string {
  const dir = mkdtempSync(join(tmpdir(), "ocp-engines-"));
  dirs.push(dir);
  for (const [path, manifest] of Object.entries(packages)) {
    mkdirSync(join(dir, path), { recursive: true });
    writeFileSync(
      join(dir, path, "package.json"),
      JSON.stringify({ version: "1.0.0", ...manifest }),
    );
  }
  return dir;
}

const OURS = "^20.19.0 || >=22";

describe("engines ranges", () => {
  it.each([
    [">=22", "20.19.0"],
    [">= 0.6", undefined],
    [">=18", undefined],
    ["*", undefined],
    ["^18 || ^20 || >=22", undefined],
    ["^18 || ^20.20 || >=22", "20.19.0"],
    ["20.x || 22.x || 23.x", "24.0.0"],
    [">=20.19 <23", "23.0.0"],
    ["18 - 22", "23.0.0"],
    [">= 20.19.0", undefined],
    ["^20.19.0 || >=21", undefined],
  ])("a dependency declaring node %s leaves out %s of ours", (theirs, left) => {
    expect(engines.firstVersionLeftOut(OURS, theirs)).toBe(left);
  });

  it("the workspace's published packages: no gap but the listed ones, and each listed one is met", () => {
    const { problems } = engines.checkEnginesOf(publishedPackages(root));
    expect(problems).toEqual([]);
    expect(Object.keys(engines.KNOWN_ENGINE_GAPS).sort()).toEqual(["better-sqlite3", "cookie"]);
  });

  it("names a dependency, direct or deep, that leaves out a version we admit, and its path", () => {
    const dir = tree({
      ".": { name: "pkg", engines: { node: OURS }, dependencies: { a: "1" } },
      "node_modules/a": { name: "a", engines: { node: ">=18" }, dependencies: { b: "1" } },
      "node_modules/b": { name: "b", engines: { node: ">=22" } },
    });
    const { problems } = engines.checkEnginesOf([dir], {});
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("pkg: b@1.0.0 (pkg → a → b) declares node >=22");
    expect(problems[0]).toContain("leaving out Node 20.19.0");
  });

  it("skips optional peers and dev dependencies, follows required peers", () => {
    const dir = tree({
      ".": {
        name: "pkg",
        engines: { node: OURS },
        peerDependencies: { opt: "1", req: "1" },
        peerDependenciesMeta: { opt: { optional: true } },
        devDependencies: { dev: "1" },
      },
      "node_modules/opt": { name: "opt", engines: { node: ">=24" } },
      "node_modules/dev": { name: "dev", engines: { node: ">=24" } },
      "node_modules/req": { name: "req", engines: { node: ">=24" } },
    });
    const { problems } = engines.checkEnginesOf([dir], {});
    expect(problems.map((p) => p.split(" ")[1])).toEqual(["req@1.0.0"]);
  });

  it("a listed gap hides only the version it names; a listed gap not met is reported as stale", () => {
    const dir = tree({
      ".": { name: "pkg", engines: { node: OURS }, dependencies: { c: "1" } },
      "node_modules/c": { name: "c", engines: { node: ">=24" } },
    });
    const known = (leftOut: string): Known => ({ c: { leftOut, via: "pkg → c", why: "test" } });
    expect(engines.checkEnginesOf([dir], known("20.19.0")).problems).toEqual([]);
    const moved = engines.checkEnginesOf([dir], known("23.0.0")).problems;
    expect(moved.some((p) => p.includes("c@1.0.0 (pkg → c) declares node >=24"))).toBe(true);
    expect(moved.some((p) => p.includes("KNOWN_ENGINE_GAPS lists c"))).toBe(true);
  });

  it("an unreadable range is a named problem, not a crash", () => {
    const dir = tree({
      ".": { name: "pkg", engines: { node: OURS }, dependencies: { d: "1" } },
      "node_modules/d": { name: "d", engines: { node: "node twenty" } },
    });
    const { problems } = engines.checkEnginesOf([dir], {});
    expect(problems).toEqual([
      expect.stringContaining('d@1.0.0 (pkg → d): cannot read the engines range "node twenty"'),
    ]);
  });
});
