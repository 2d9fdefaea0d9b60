import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const packagesDir = fileURLToPath(new URL("../..", import.meta.url));
/** The a2a+ocp wing's message paths beyond the message layer (which has its own test). */
const WING = ["a2a-ocp-hub", "a2a-ocp-agent", "a2a-ocp-client", "a2a-ocp-dashboard"];

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
  it("no module of the hub, the agent, the client or the dashboard casts a value to Record<string, unknown>", () => {
    const casts = WING.flatMap((name) => modules(join(packagesDir, name, "src"))).flatMap((path) =>
      readFileSync(path, "utf8")
        .split("\n")
        .flatMap((line, index) =>
          /\bas\s+(?:unknown\s+as\s+)?(?:Readonly<)?Record<string,\s*unknown>/.test(line)
            ? [`${relative(packagesDir, path)}:${index + 1}`]
            : [],
        ),
    );
    expect(casts).toEqual([]);
  });
});
