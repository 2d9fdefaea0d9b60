import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root, SLOW } from "./helpers.js";

const exec = promisify(execFile);
let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "ocp-mcp-bridge-readme-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("README first example", () => {
  it(
    "the package ships the MCP server the example starts (examples/notes-server.mjs is in the packed files)",
    async () => {
      const { stdout } = await exec("npm", ["pack", "--dry-run", "--json"], {
        cwd: root,
        timeout: SLOW,
        env: { ...process.env, npm_config_update_notifier: "false" },
      });
      const [packed] = JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>;
      expect(packed!.files.map((file) => file.path)).toContain("examples/notes-server.mjs");
    },
    SLOW,
  );

  it(
    "is a complete program: installed, it runs as written, prints the output shown and exits 0",
    async () => {
      const readme = await readFile(join(root, "README.md"), "utf8");
      const [, code, shown] = /```js\n([\s\S]*?)```\n\n```text\n([\s\S]*?)```/.exec(readme) ?? [];
      expect(code).toContain("connectMcpProvider");
      // As an install lays it out (the built workspace package).
      await mkdir(join(work, "node_modules", "@ocp"), { recursive: true });
      await symlink(root, join(work, "node_modules", "@ocp", "mcp-bridge"), "dir");
      await writeFile(join(work, "first.mjs"), code!);
      const { stdout } = await exec(process.execPath, ["first.mjs"], { cwd: work, timeout: SLOW });
      expect(stdout).toBe(shown);
    },
    SLOW,
  );
});
