import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "..", "src");
const ALLOWED = [/^node:/, /^ws$/, /^zod$/, /^@ocp\/types(\/internal)?$/, /^\.\/[a-z-]+\.js$/];

describe("layering", () => {
  it("the transport imports only node:*, ws, zod, @ocp/types (root and ./internal) and its own modules (never messaging)", () => {
    const offending: string[] = [];
    for (const file of readdirSync(SRC).filter((name) => name.endsWith(".ts"))) {
      const text = readFileSync(join(SRC, file), "utf8");
      for (const match of text.matchAll(/(?:import|export)\s[^;]*?from\s+"([^"]+)"/g)) {
        const specifier = match[1]!;
        if (!ALLOWED.some((pattern) => pattern.test(specifier)))
          offending.push(`${file}: ${specifier}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it("every source module stays under about 400 lines", () => {
    const long = readdirSync(SRC)
      .filter((name) => name.endsWith(".ts"))
      .map((name) => [name, readFileSync(join(SRC, name), "utf8").split("\n").length] as const)
      .filter(([, lines]) => lines > 440);
    expect(long).toEqual([]);
  });
});
