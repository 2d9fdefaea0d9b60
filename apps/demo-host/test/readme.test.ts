/**
 * The README against the code: the CLI help it shows is what
 * `ocp-demo-host --help` prints (dist/cli.js), and its providers file is one
 * the host loads (`loadConfig`, the config schema).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";

const run = promisify(execFile);
const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

/** The text of the one fenced block between `<!-- name -->` and `<!-- /name -->`. */
function block(name: string): string {
  const start = readme.indexOf(`<!-- ${name} -->`);
  const end = readme.indexOf(`<!-- /${name} -->`);
  expect(start, `section ${name}`).toBeGreaterThan(-1);
  expect(end).toBeGreaterThan(start);
  const fenced = /```\w*\n([\s\S]*?)```/.exec(readme.slice(start, end));
  expect(fenced, `a fenced block in ${name}`).not.toBeNull();
  return fenced?.[1] ?? "";
}

describe("README", () => {
  it("shows exactly what `ocp-demo-host --help` prints", async () => {
    const { stdout } = await run(process.execPath, [cli, "--help"]);
    expect(block("cli-help").trim()).toBe(stdout.trim());
  });

  it("shows a providers file the host loads as written, relative paths resolved", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ocp-demo-host-readme-"));
    try {
      const path = join(dir, "ocp.config.json");
      writeFileSync(path, block("config"));
      const config = await loadConfig(path);
      expect(config.providers.map((entry) => entry.id)).toEqual(["docs", "wiki"]);
      expect(config.providers[0]).toMatchObject({
        stdio: { command: "ocp-demo-provider", args: ["docs", "my notes"] },
      });
      expect(config.providers[1]).toMatchObject({
        http: { url: "https://wiki.example/ocp", tokenEnv: "WIKI_TOKEN" },
        timeoutMs: 5000,
      });
      expect(config.consentFile).toBe(join(dir, ".ocp", "consent.jsonl"));
      expect(config.timeoutMs).toBe(10_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
