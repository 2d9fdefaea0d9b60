import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const srcDir = fileURLToPath(new URL("../src", import.meta.url));

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? modules(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

describe("message paths are typed, not cast (issue 42)", () => {
  it("no module of src/ casts a value to Record<string, unknown>: objects are narrowed by isJsonObject", () => {
    const casts = modules(srcDir).flatMap((path) =>
      readFileSync(path, "utf8")
        .split("\n")
        .flatMap((line, index) =>
          /\bas\s+(?:Readonly<)?Record<string,\s*unknown>/.test(line)
            ? [`${relative(srcDir, path)}:${index + 1}`]
            : [],
        ),
    );
    expect(casts).toEqual([]);
  });
});
