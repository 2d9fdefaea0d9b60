import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const packages = fileURLToPath(new URL("../..", import.meta.url));
const readme = readFileSync(join(packages, "a2a-compat", "README.md"), "utf8");
const work = mkdtempSync(join(tmpdir(), "ocp-a2a-compat-readme-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("README (a2a-compat) first example", () => {
  it("is a complete program: with the packages its install lines name, it runs as written, prints the output shown and exits 0", async () => {
    const installed = [...readme.matchAll(/^npm install (.+)$/gm)].flatMap((m) => m[1]!.split(" "));
    expect(installed.sort()).toEqual(
      [
        "@ocp/a2a-compat",
        "@ocp/a2a-ocp-agent",
        "@ocp/a2a-ocp-client",
        "@ocp/a2a-ocp-hub",
        "@ocp/a2a-ocp-messaging",
        "express",
      ].sort(),
    );
    // As an install lays them out: the named packages (the built workspace ones).
    mkdirSync(join(work, "node_modules", "@ocp"), { recursive: true });
    for (const name of installed) {
      const target = name.startsWith("@ocp/")
        ? join(packages, name.slice("@ocp/".length))
        : join(packages, "a2a-compat", "node_modules", name);
      symlinkSync(target, join(work, "node_modules", name), "dir");
    }
    const code = /```js\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    const shown = /```js\n[\s\S]*?```\n\n```text\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    writeFileSync(join(work, "first.mjs"), code);
    const { stdout } = await run(process.execPath, ["first.mjs"], { cwd: work, timeout: 60_000 });
    expect(shown.length).toBeGreaterThan(0);
    expect(stdout).toBe(shown);
  }, 90_000);
});
