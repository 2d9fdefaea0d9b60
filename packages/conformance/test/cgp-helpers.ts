import { fileURLToPath } from "node:url";
import { type CgpMisbehaveMode, type ConformanceReport, runCgpConformance } from "../src/index.js";
import { fixtureCommand } from "../src/internal.js";
import { FAST, runHttp, startHttpFixture } from "./helpers.js";

/** A fixture script of this package's tests, run with node. */
export function fixtureScript(name: string, ...args: string[]) {
  return {
    command: process.execPath,
    args: [fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)), ...args],
  };
}

export function runCgpStdio(mode?: CgpMisbehaveMode): Promise<ConformanceReport> {
  return runCgpConformance(
    fixtureCommand(...(mode === undefined ? [] : ["--misbehave", mode])),
    FAST,
  );
}

export async function runCgpHttp(mode?: CgpMisbehaveMode): Promise<ConformanceReport> {
  const server = await startHttpFixture(mode as never);
  try {
    return await runCgpConformance({ url: server.url }, FAST);
  } finally {
    await server.stop();
  }
}

export { runHttp };

/** Each check's status, as `name:status`, in report order. */
export function statuses(report: ConformanceReport): string[] {
  return report.checks.map((check) => `${check.name}:${check.status}`);
}
