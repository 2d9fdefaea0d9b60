import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { tempDir } from "@ocp/testkit";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const packages = fileURLToPath(new URL("../..", import.meta.url));
const readme = readFileSync(join(packages, "team-context", "README.md"), "utf8");
const tmp = tempDir("ocp-team-context-readme-");
afterAll(() => tmp.cleanup());

describe("README (team-context) first example", () => {
  it("is a complete program: installed with the peers its install line names, it runs as written and exits 0", async () => {
    const install = /```sh\nnpm install ([^\n]+)\n```/.exec(readme)?.[1]?.split(" ") ?? [];
    expect(install).toEqual(["@ocp/team-context", "@ocp/a2a-ocp-hub", "@ocp/a2a-ocp-messaging"]);
    const code = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    // As an install lays them out: the named packages and what they bring (the built workspace ones).
    mkdirSync(join(tmp.dir, "node_modules", "@ocp"), { recursive: true });
    for (const name of [...install, "@ocp/types"]) {
      symlinkSync(join(packages, name.slice("@ocp/".length)), join(tmp.dir, "node_modules", name));
    }
    const js = ts.transpileModule(code, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    writeFileSync(join(tmp.dir, "first.mjs"), js);
    const { stdout } = await run(process.execPath, ["first.mjs"], {
      cwd: tmp.dir,
      timeout: 60_000,
    });
    expect(stdout).toContain(
      "doc [Reconnect WebSockets with exponential backoff (alice, node ws-backoff)]",
    );
    expect(stdout).toMatch(/shared with the team as node ocp-frame-[0-9a-f]+/);
  }, 90_000);
});
