import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { killGroup } from "@ocp/transport-stdio/process";
import {
  type ConformanceReport,
  type HttpMisbehaveMode,
  type MisbehaveMode,
  type RunOptions,
  runConformance,
} from "../src/index.js";
import { fixtureCommand } from "../src/internal.js";

/**
 * Short bounds for runs against the fixture: a hang costs seconds, not tens of
 * seconds. The handshake bound includes spawning node, which on a loaded
 * two-core machine (three runs at once, three children each) takes seconds:
 * it is the generous one; the foreign-version wait (H3) is shorter.
 */
export const FAST: RunOptions = {
  handshakeTimeoutMs: 15_000,
  mismatchTimeoutMs: 10_000,
  queryTimeoutMs: 2_000,
  shutdownTimeoutMs: 4_000,
};

/** Runs `task` over `items`, at most `limit` at once (2 cores: keep the machine responsive). */
export async function pool<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      out[index] = await task(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export function stdioFixture(mode?: MisbehaveMode) {
  return fixtureCommand(...(mode === undefined ? [] : ["--misbehave", mode]));
}

export function runStdio(
  mode?: MisbehaveMode,
  options: RunOptions = FAST,
): Promise<ConformanceReport> {
  return runConformance(stdioFixture(mode), options);
}

/** Starts the fixture as an HTTP server child on 127.0.0.1 and reads its URL. */
export async function startHttpFixture(
  mode?: MisbehaveMode | HttpMisbehaveMode,
): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  const { command, args } = fixtureCommand(
    ...(mode === undefined ? [] : ["--misbehave", mode]),
    "--http",
    "0",
  );
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"], detached: true });
  const lines = createInterface({ input: child.stdout! });
  const timer = setTimeout(() => killGroup(child.pid!), 10_000);
  const [url] = (await once(lines, "line")) as [string];
  clearTimeout(timer);
  const exited = once(child, "exit");
  return {
    url,
    child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        killGroup(child.pid!);
        await exited;
      }
    },
  };
}

export async function runHttp(
  mode?: MisbehaveMode | HttpMisbehaveMode,
  options: RunOptions = FAST,
): Promise<ConformanceReport> {
  const server = await startHttpFixture(mode);
  try {
    return await runConformance({ url: server.url }, options);
  } finally {
    await server.stop();
  }
}

export function statusOf(report: ConformanceReport, name: string): string | undefined {
  return report.checks.find((check) => check.name === name)?.status;
}

export function failed(report: ConformanceReport): string[] {
  return report.checks.filter((check) => check.status === "fail").map((check) => check.name);
}

export function evidenceOf(report: ConformanceReport, name: string): string {
  return report.checks.find((check) => check.name === name)?.evidence ?? "";
}
