import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The repository's front pages name every published package, and the root
 * README's promise that the demos need only Node and npm holds in
 * package.json (apps/demo-team/test/root-scripts.test.ts runs one).
 */
const root = fileURLToPath(new URL("../../..", import.meta.url));
const { publishedPackages } = (await import(
  pathToFileURL(join(root, "scripts", "check-packages.mjs")).href
)) as { publishedPackages: (root: string) => string[] };

const read = (path: string) => readFileSync(join(root, path), "utf8");
const names = publishedPackages(root).map((dir) => basename(dir));

describe("the root README, docs/design.md and CONTRIBUTING.md", () => {
  it("the root README's package table links every published package", () => {
    const readme = read("README.md");
    expect(names.length).toBeGreaterThanOrEqual(16);
    for (const name of names)
      expect(readme, name).toMatch(
        new RegExp(`^\\| \\[\`@ocp/${name}\`\\]\\(packages/${name}\\) +\\|`, "m"),
      );
  });

  it("docs/design.md's package table has a row for every published package", () => {
    const design = read("docs/design.md");
    for (const name of names)
      expect(design, name).toMatch(new RegExp(`^\\| \`@ocp/${name}\` +\\|`, "m"));
  });

  it("CONTRIBUTING.md names mcp-bridge, team-context and test-suite, and puts every package in the publishing order", () => {
    const contributing = read("CONTRIBUTING.md");
    for (const name of ["mcp-bridge", "team-context", "test-suite"])
      expect(contributing).toContain(`\`@ocp/${name}\``);
    const order = contributing.slice(contributing.indexOf("**Publishing order.**"));
    for (const name of names) expect(order, name).toContain(`\`${name}\``);
  });

  it("the demo scripts go through scripts/run-demo.sh, never turbo or pnpm straight from npm", () => {
    const { scripts } = JSON.parse(read("package.json")) as { scripts: Record<string, string> };
    for (const script of ["demo", "demo:team", "demo:team-context"]) {
      expect(scripts[script], script).toMatch(
        /^sh scripts\/run-demo\.sh \S+\.mjs( --filter=\S+)+$/,
      );
    }
    for (const script of ["fresh:demo", "fresh:test"]) {
      const commands = scripts[script]!.split(" && ");
      for (const command of commands) expect(command, script).toMatch(/^sh scripts\//);
    }
  });
});
