/**
 * `ocp-inspect` on a real terminal: `--json` prints only JSON on stdout even
 * when stdout is a terminal; the human report is coloured on a terminal
 * unless NO_COLOR is set, and never when stdout is a pipe.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { colourEnv, ESC, onTerminal } from "@ocp/testkit/terminal";
import { describe, expect, it } from "vitest";
import { fixtureCommand } from "../src/internal.js";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const FIXTURE = fixtureCommand().args[0]!;
const STDIO = ["stdio", "--", process.execPath, FIXTURE];

describe("ocp-inspect on a terminal", () => {
  it("--json prints one JSON document and no escape sequence, stdout a terminal", () => {
    const run = onTerminal([CLI, "stdio", "--json", ...STDIO.slice(1)], colourEnv());
    expect(run.status).toBe(0);
    expect(run.stdout).not.toContain(ESC);
    expect(JSON.parse(run.stdout)).toMatchObject({ target: expect.stringContaining("stdio") });
  }, 120_000);

  it("colours the human report on a terminal, and not with NO_COLOR=1", () => {
    const coloured = onTerminal([CLI, ...STDIO], colourEnv());
    expect(coloured.status).toBe(0);
    expect(coloured.stdout).toContain(`${ESC}[`);
    const plain = onTerminal([CLI, ...STDIO], colourEnv("1"));
    expect(plain.status).toBe(0);
    expect(plain.stdout).not.toContain(ESC);
    // The same report, only uncoloured.
    expect(plain.stdout).toMatch(/CONFORMANT — \d+ passed/);
    expect(coloured.stdout.replace(/\u001b\[[0-9;]*m/g, "")).toMatch(/CONFORMANT — \d+ passed/);
  }, 120_000);

  it("writes no escape sequence when stdout is a pipe, NO_COLOR unset", () => {
    const piped = spawnSync(process.execPath, [CLI, ...STDIO], {
      encoding: "utf8",
      env: colourEnv() as NodeJS.ProcessEnv,
      timeout: 90_000,
    });
    expect(piped.status).toBe(0);
    expect(piped.stdout).not.toContain(ESC);
    expect(piped.stdout.length).toBeGreaterThan(0);
  }, 120_000);
});
