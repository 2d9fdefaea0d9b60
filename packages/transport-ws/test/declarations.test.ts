import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * This package's declarations import `ws` (its `WebSocket` and
 * `WebSocketServer` are in the public types), and `ws` ships no types: a
 * TypeScript user compiles them only when `@types/ws` comes with the
 * install, as a dependency (a devDependency gives them TS7016). The check
 * is scripts/check-packages.mjs, run on the built package.
 */
const root = fileURLToPath(new URL("../../..", import.meta.url));
const dir = fileURLToPath(new URL("..", import.meta.url));
const { checkDeclarations } = (await import(
  pathToFileURL(join(root, "scripts", "check-packages.mjs")).href
)) as {
  checkDeclarations: (options: { dir: string }) => { files: number; problems: string[] };
};

describe("the published declarations", () => {
  it("import ws, whose types (@types/ws) are a dependency, not a devDependency", () => {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    expect(pkg.dependencies["@types/ws"]).toBe("catalog:");
    expect(pkg.devDependencies?.["@types/ws"]).toBeUndefined();
    expect(readFileSync(join(dir, "dist", "server.d.ts"), "utf8")).toMatch(/from "ws"/);
    const result = checkDeclarations({ dir });
    expect(result.files).toBeGreaterThan(5);
    expect(result.problems).toEqual([]);
  });

  it("the check names ws when @types/ws is only a devDependency (TS7016 for users)", () => {
    const copy = mkdtempSync(join(tmpdir(), "ocp-transport-ws-decl-"));
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
        dependencies: Record<string, string>;
        devDependencies?: Record<string, string>;
      };
      const { "@types/ws": types, ...rest } = pkg.dependencies;
      pkg.dependencies = rest;
      pkg.devDependencies = { "@types/ws": types! };
      writeFileSync(join(copy, "package.json"), JSON.stringify(pkg));
      symlinkSync(join(dir, "dist"), join(copy, "dist"), "dir");
      symlinkSync(join(dir, "node_modules"), join(copy, "node_modules"), "dir");
      const { problems } = checkDeclarations({ dir: copy });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/imports "ws", which ships no types, and @types\/ws is not/);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
