/**
 * `@ocp/testkit/terminal`: run a command-line program with its stdout on a
 * real terminal, for the tests that pin what a CLI prints there (colour,
 * `--json`). Only `node:` modules; needs util-linux `script` on PATH.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The escape character that starts every ANSI sequence. */
export const ESC = "\u001b";

/** What a program run by {@link onTerminal} left: its exit status, the terminal's text, its stderr. */
export interface TerminalRun {
  readonly status: number | null;
  /** What the terminal showed (line ends as `\n`): exactly what the program wrote to stdout. */
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `node ARGS…` with its stdin and stdout on a real terminal (util-linux
 * `script` allocates a pseudo-terminal) and its stderr in a file, so what the
 * terminal showed is exactly what the program wrote to stdout. Bounded by
 * `timeoutMs` (default 90 s).
 */
export function onTerminal(
  args: readonly string[],
  env: Record<string, string | undefined>,
  timeoutMs = 90_000,
): TerminalRun {
  const dir = mkdtempSync(join(tmpdir(), "ocp-tty-"));
  try {
    const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
    const errFile = join(dir, "stderr");
    const command = `${[process.execPath, ...args].map(quote).join(" ")} 2>${quote(errFile)}`;
    const result = spawnSync("script", ["-qec", command, "/dev/null"], {
      encoding: "utf8",
      env: env as NodeJS.ProcessEnv,
      timeout: timeoutMs,
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

/** This process's environment without NO_COLOR and FORCE_COLOR (or with NO_COLOR set to `value`). */
export function colourEnv(value?: string): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  delete env["NO_COLOR"];
  delete env["FORCE_COLOR"];
  if (value !== undefined) env["NO_COLOR"] = value;
  return env;
}
