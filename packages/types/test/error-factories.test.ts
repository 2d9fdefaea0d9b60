import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * One way to build a typed error: every package raises through an
 * `errorFactory` of `@ocp/types` (or `wireError` / `foreignError`), so its
 * codes are checked at compile time and every factory has one signature.
 * Only `src/errors.ts` of this package, which defines them, constructs an
 * `OcpError` itself.
 */
const root = fileURLToPath(new URL("../../..", import.meta.url));
const DEFINES_THEM = "packages/types/src/errors.ts";

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

describe("one error factory", () => {
  it("no package source outside @ocp/types' errors.ts constructs an OcpError: each raises through its errorFactory", () => {
    const raw: string[] = [];
    for (const group of ["packages", "apps"]) {
      for (const name of readdirSync(join(root, group))) {
        const src = join(root, group, name, "src");
        let files: string[];
        try {
          files = sources(src);
        } catch {
          continue;
        }
        for (const file of files) {
          const rel = relative(root, file).split("\\").join("/");
          if (rel !== DEFINES_THEM && /new OcpError\b/.test(readFileSync(file, "utf8"))) {
            raw.push(rel);
          }
        }
      }
    }
    expect(raw).toEqual([]);
  });

  it("a package that declares its own error-factory signature instead of errorFactory is named", () => {
    // A factory function with positional details (the shape every package had before).
    const declared = /export function \w+Error\(\s*code: \w+Code,\s*message: string,\s*details/;
    const offenders: string[] = [];
    for (const name of readdirSync(join(root, "packages"))) {
      const file = join(root, "packages", name, "src", "errors.ts");
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch {
        continue;
      }
      if (declared.test(text)) offenders.push(`packages/${name}/src/errors.ts`);
    }
    expect(offenders).toEqual([]);
  });
});
