import { readFileSync } from "node:fs";
import { type ParseArgsConfig, parseArgs } from "node:util";
import { bridgeError } from "./errors.js";

/** The options both bridge CLIs take: where the other side is, and their bounds. */
const COMMON_OPTIONS = {
  url: { type: "string" },
  env: { type: "string", multiple: true },
  "connect-timeout": { type: "string" },
  timeout: { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

/** What the common options parse to: derived from them, so the two cannot drift apart. */
type CommonValues = ReturnType<typeof parseArgs<{ options: typeof COMMON_OPTIONS }>>["values"];

/** A bridge CLI's command line: its options, and `-- COMMAND [ARG...]` when there is no `--url`. */
export type CliInvocation<V> = {
  values: V & CommonValues;
  command: string | undefined;
  args: string[];
};

/**
 * Parses a bridge CLI's arguments (the common options and `extra`). Prints
 * `help` or the version and gives undefined for `--help` and `--version`;
 * throws a `usage` error on an unknown option, a missing value, or anything
 * but exactly one of `-- COMMAND [ARG...]` and `--url URL`.
 */
export function parseCli<V>(
  extra: NonNullable<ParseArgsConfig["options"]>,
  help: string,
): CliInvocation<V> | undefined {
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: { ...COMMON_OPTIONS, ...extra },
    });
  } catch (error) {
    throw bridgeError("usage", (error as Error).message);
  }
  const values = parsed.values as V & CommonValues;
  if (values.help) {
    process.stdout.write(help);
    return undefined;
  }
  if (values.version) {
    process.stdout.write(`${packageVersion()}\n`);
    return undefined;
  }
  const [command, ...args] = parsed.positionals;
  if ((command === undefined) === (values.url === undefined)) {
    throw bridgeError("usage", "give either -- COMMAND [ARG...] or --url URL");
  }
  return { values, command, args };
}

/** This package's version, from its package.json. */
export function packageVersion(): string {
  const json = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version?: unknown;
  };
  return typeof json.version === "string" ? json.version : "0.0.0";
}

/** A positive integer flag (milliseconds, counts); anything else is a `usage` error. */
export function positiveInt(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed <= 0) {
    throw bridgeError("usage", `${flag} takes a positive integer, not "${value}"`);
  }
  return parsed;
}

/** The variables named by `--env NAME` (or `NAME=VALUE`), taken from this process's environment. */
export function namedEnv(names: readonly string[] | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of names ?? []) {
    const eq = entry.indexOf("=");
    if (eq > 0) {
      env[entry.slice(0, eq)] = entry.slice(eq + 1);
      continue;
    }
    const value = process.env[entry];
    if (value === undefined)
      throw bridgeError("usage", `--env ${entry}: not set in this environment`);
    env[entry] = value;
  }
  return env;
}

/**
 * Runs a CLI's `main`: exit status 2 on a usage error (one line naming the
 * problem, then `run "BIN --help" for usage`), 1 on any other failure,
 * message on stderr.
 */
export function runCli(bin: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    const code = (error as { code?: unknown }).code;
    const message = error instanceof Error ? error.message : String(error);
    if (code === "usage") {
      const line = message.replace(/\s*\n\s*/g, " ");
      process.stderr.write(`${bin}: ${line}\nrun "${bin} --help" for usage\n`);
      process.exit(2);
    }
    process.stderr.write(`${bin}: ${message}\n`);
    process.exit(1);
  });
}

/**
 * Calls `onOver` once when `stream` brings more than `limit` bytes without a
 * newline: the bound the SDK's stdio `ReadBuffer` applies (unread bytes plus
 * the new chunk), checked first so the reason is known before the SDK closes
 * the transport. Attach it before the SDK's transport starts reading.
 */
export function watchLineLength(
  stream: NodeJS.ReadableStream,
  limit: number,
  onOver: () => void,
): void {
  let pending = 0;
  const watch = (chunk: Buffer | string) => {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    if (pending + bytes.length > limit) {
      stream.off("data", watch);
      onOver();
      return;
    }
    const newline = bytes.lastIndexOf(10);
    pending = newline === -1 ? pending + bytes.length : bytes.length - newline - 1;
  };
  stream.on("data", watch);
}
