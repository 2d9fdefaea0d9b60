import { readFileSync } from "node:fs";
import { bridgeError } from "./errors.js";

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

/** Runs a CLI's `main`: exit status 2 on a usage error, 1 on any other failure, message on stderr. */
export function runCli(bin: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    const code = (error as { code?: unknown }).code;
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${bin}: ${message}${code === "usage" ? `\nTry ${bin} --help.` : ""}\n`);
    process.exit(code === "usage" ? 2 : 1);
  });
}
