/**
 * `@ocp/conformance/cli`: what the two suite CLIs (`ocp-inspect` here and
 * `ocp-test` of `@ocp/test-suite`) share — the shape of a parsed command
 * line, `--flag=value` splitting, the `--timeout` rule, and `main`: help,
 * version, a one-line usage error, the report as JSON or text, the exit code
 * and a bounded exit. Loads only `node:fs` and the report formatter (the suite itself is loaded by the
 * program's `run` once the command line is known to be good).
 */
import { readFileSync } from "node:fs";
import { EXIT_CODES as EXIT } from "./format.js";

/** What a suite CLI's parser returns: help, version, a usage error, or a run of its own kind. */
export type CliParsed<Run> =
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "usage-error"; message: string }
  | Run;

/** A usage error with its one-line message. */
export function usageError(message: string): { kind: "usage-error"; message: string } {
  return { kind: "usage-error", message };
}

/**
 * Splits `--flag=value` into the flag and its inline value; any other
 * argument (a short flag, a bare word, `--flag` alone) is the flag itself.
 */
export function splitFlag(arg: string): [flag: string, inline: string | undefined] {
  const equals = arg.startsWith("--") ? arg.indexOf("=") : -1;
  return equals === -1 ? [arg, undefined] : [arg.slice(0, equals), arg.slice(equals + 1)];
}

/**
 * The value of `--timeout`: a positive whole number of milliseconds, or the
 * usage error both CLIs print for anything else (absent, signed, decimal, 0).
 */
export function timeoutArg(
  text: string | undefined,
): number | { kind: "usage-error"; message: string } {
  const ms = Number(text);
  if (text === undefined || !/^\d+$/.test(text) || ms <= 0)
    return usageError("--timeout needs a positive number of milliseconds");
  return ms;
}

/** One suite CLI: its name, help text, parser, and how it runs and prints a report. */
export interface SuiteCli<Run extends { kind: string; json: boolean }, Report> {
  /** The command's name, the prefix of every line it writes to stderr. */
  readonly name: string;
  readonly usage: string;
  /** The package.json whose `version` `--version` prints. */
  readonly packageJson: URL;
  parse(argv: readonly string[]): CliParsed<Run>;
  run(parsed: Run): Promise<Report>;
  /** The text report; `color` when stdout is a terminal and NO_COLOR is unset. */
  format(report: Report, options: { color: boolean }): string | Promise<string>;
  /** Whether the report is conformant (exit 0) or not (exit 1). */
  conformant(report: Report): boolean;
}

/**
 * A suite CLI's `main`: `--help` and `--version` on stdout (exit 0), a usage
 * error as one line and a hint on stderr (exit 2), otherwise the run's report
 * on stdout — JSON only under `--json` — and exit 0 or 1 by its verdict.
 */
export async function cliMain<Run extends { kind: string; json: boolean }, Report>(
  cli: SuiteCli<Run, Report>,
  argv: readonly string[],
): Promise<number> {
  const parsed = cli.parse(argv);
  if (parsed.kind === "help") {
    process.stdout.write(cli.usage);
    return EXIT.conformant;
  }
  if (parsed.kind === "version") {
    const manifest = JSON.parse(readFileSync(cli.packageJson, "utf8")) as { version: string };
    process.stdout.write(`${manifest.version}\n`);
    return EXIT.conformant;
  }
  if (parsed.kind === "usage-error") {
    // One line naming the problem and a hint, not the whole usage text.
    const { message } = parsed as { message: string };
    process.stderr.write(`${cli.name}: ${message}\nrun "${cli.name} --help" for usage\n`);
    return EXIT.usage;
  }
  const run = parsed as Run;
  const report = await cli.run(run);
  if (run.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    const color = process.stdout.isTTY === true && process.env["NO_COLOR"] === undefined;
    process.stdout.write(await cli.format(report, { color }));
  }
  return cli.conformant(report) ? EXIT.conformant : EXIT.notConformant;
}

/**
 * Runs {@link cliMain} as the process: sets the exit code, then exits after
 * `graceMs` even if a provider or hub left a stray handle open; a crash is
 * its stack on stderr and exit 1.
 */
export function runSuiteCli<Run extends { kind: string; json: boolean }, Report>(
  cli: SuiteCli<Run, Report>,
  argv: readonly string[],
  graceMs: number,
): void {
  cliMain(cli, argv).then(
    (code) => {
      process.exitCode = code;
      // Children and sockets are gone; do not wait on a stray handle.
      setTimeout(() => process.exit(code), graceMs).unref();
    },
    (error: unknown) => {
      process.stderr.write(`${cli.name}: ${(error as Error).stack ?? String(error)}\n`);
      process.exit(EXIT.notConformant);
    },
  );
}
