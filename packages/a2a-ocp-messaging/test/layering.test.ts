import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const src = fileURLToPath(new URL("../src", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
  });
}

const importsOf = (path: string) =>
  [...readFileSync(path, "utf8").matchAll(/^(?:import|export)[^;]*?from\s+"([^"]+)"/gms)].map(
    (m) => m[1]!,
  );

describe("layering", () => {
  // Node-only code: src/node (./node), src/hub and src/client (./hub), src/agent (./agent).
  const nodeOnly = ["node", "hub", "client", "agent"];
  const portable = sources(src).filter(
    (path) => !nodeOnly.some((dir) => relative(src, path).startsWith(dir)),
  );

  it("the portable entry (everything outside src/node, src/hub, src/client) imports no node: module and nothing node-only", () => {
    expect(portable.length).toBeGreaterThan(10);
    for (const path of portable) {
      for (const specifier of importsOf(path)) {
        expect(specifier.startsWith("node:"), `${relative(src, path)} imports ${specifier}`).toBe(
          false,
        );
        for (const dir of nodeOnly) {
          expect(
            specifier.includes(`/${dir}/`),
            `${relative(src, path)} imports ${specifier}`,
          ).toBe(false);
        }
      }
    }
  });

  it("keeps every module under 400 lines", () => {
    for (const path of sources(src)) {
      const lines = readFileSync(path, "utf8").split("\n").length;
      expect(lines, relative(src, path)).toBeLessThanOrEqual(400);
    }
  });
});
