/**
 * `ocp-demo-host --json` with stdout on a real terminal: one JSON document on
 * stdout and no escape sequence (progress and logs go to stderr), NO_COLOR
 * set or not.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostCli, providerCli } from "./helpers.js";

/**
 * Runs `node ARGS…` with its stdin and stdout on a real terminal (util-linux
 * `script` allocates a pseudo-terminal) and its stderr in a file, so what the
 * terminal showed is exactly what the program wrote to stdout.
 */
function onTerminal(
  args: readonly string[],
  env: Record<string, string | undefined>,
): { status: number | null; stdout: string; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), "ocp-tty-"));
  try {
    const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
    const errFile = join(dir, "stderr");
    const command = `${[process.execPath, ...args].map(quote).join(" ")} 2>${quote(errFile)}`;
    const result = spawnSync("script", ["-qec", command, "/dev/null"], {
      encoding: "utf8",
      env: env as NodeJS.ProcessEnv,
      timeout: 90_000,
    });
    return {
      status: result.status,
      stdout: result.stdout.replace(/\r\n/g, "\n"),
      stderr: readFileSync(errFile, "utf8"),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ESC = "\u001b";
/** The environment without NO_COLOR (or with it set to `value`). */
function colourEnv(value?: string): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  delete env["NO_COLOR"];
  delete env["FORCE_COLOR"];
  if (value !== undefined) env["NO_COLOR"] = value;
  return env;
}

let docs: string;
beforeAll(() => {
  docs = mkdtempSync(join(tmpdir(), "ocp-demo-json-"));
  writeFileSync(join(docs, "lease.md"), "# Leases\n\nA lease renewal extends the lease.\n");
});
afterAll(() => rmSync(docs, { recursive: true, force: true }));

describe("ocp-demo-host --json on a terminal", () => {
  it.each([
    ["NO_COLOR unset", undefined],
    ["NO_COLOR=1", "1"],
  ])(
    "prints one JSON document and no escape sequence (%s)",
    (_name, noColor) => {
      const run = onTerminal(
        [hostCli, "--json", "lease renewal", "--", `notes=${process.execPath}`, providerCli, docs],
        colourEnv(noColor),
      );
      expect(run.status).toBe(0);
      expect(run.stdout).not.toContain(ESC);
      const report = JSON.parse(run.stdout) as {
        question: string;
        composed: { included: unknown[] };
      };
      expect(report.question).toBe("lease renewal");
      expect(report.composed.included.length).toBeGreaterThan(0);
    },
    120_000,
  );
});
