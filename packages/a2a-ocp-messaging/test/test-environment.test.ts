import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * vitest.shared.mjs: every vitest project of the workspace gives the children
 * its tests spawn an empty NODE_PATH (pnpm's `vitest` shim points it at the
 * workspace's hoisted packages, where a child's `require` would find
 * packages its own package never declared).
 */

const root = fileURLToPath(new URL("../../..", import.meta.url));

function vitestConfigs(): string[] {
  const configs: string[] = [];
  for (const group of ["packages", "apps", "tools"]) {
    for (const dir of readdirSync(join(root, group), { withFileTypes: true })) {
      if (!dir.isDirectory()) continue;
      for (const file of readdirSync(join(root, group, dir.name))) {
        if (/^vitest(\..+)?\.config\.(ts|mts|js|mjs)$/.test(file)) {
          configs.push(`${group}/${dir.name}/${file}`);
        }
      }
    }
  }
  return configs.sort();
}

describe("the workspace's test environment", () => {
  it("every vitest project spreads sharedTestOptions into its test options", () => {
    const configs = vitestConfigs();
    expect(configs.length).toBeGreaterThan(20);
    const without = configs.filter((path) => {
      const text = readFileSync(join(root, path), "utf8");
      return !(
        text.includes('import { sharedTestOptions } from "../../vitest.shared.mjs"') &&
        /test:\s*{\s*\.\.\.sharedTestOptions,/.test(text)
      );
    });
    expect(without).toEqual([]);
  });

  it("a child spawned by a test gets an empty NODE_PATH, and cannot require a package it never declared", () => {
    const child = spawnSync(
      process.execPath,
      [
        "-e",
        // zod is a dependency of this package; from the filesystem root, where
        // the child runs, only NODE_PATH could find it.
        'let found = true; try { require.resolve("zod"); } catch { found = false; } process.stdout.write(JSON.stringify({ nodePath: process.env.NODE_PATH ?? null, found }));',
      ],
      { cwd: "/", encoding: "utf8" },
    );
    expect(child.status).toBe(0);
    expect(JSON.parse(child.stdout)).toEqual({ nodePath: "", found: false });
  });
});
