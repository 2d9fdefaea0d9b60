import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ContextQuery } from "@ocp/types";
import {
  type SpawnStdioProviderOptions,
  type StdioProvider,
  spawnStdioProvider,
} from "../src/index.js";

export function fixture(name: string): string {
  return fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
}

/** Spawns `node test/fixtures/<script> ...args` as a provider. */
export function spawnFixture(
  script: string,
  args: string[] = [],
  options: Partial<SpawnStdioProviderOptions> = {},
): Promise<StdioProvider> {
  return spawnStdioProvider({
    id: script.replace(/\.mjs$/, ""),
    command: process.execPath,
    args: [fixture(script), ...args],
    ...options,
  });
}

export function query(goal: string): ContextQuery {
  return { goal, kinds: [], anchors: [], max_frames: 5, max_tokens: 100 };
}

/** Whether `pid` is a live process (a zombie, dead but not reaped, counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Polls `predicate` every 20 ms for at most `ms`; returns its last answer. */
export async function eventually(predicate: () => boolean, ms = 5_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (predicate()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return predicate();
}

/** The rejection of `promise` (fails the test when it resolves). */
export async function rejection(
  promise: Promise<unknown>,
): Promise<Error & { code: string; details: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code: string; details: Record<string, unknown> };
  }
  throw new Error("expected a rejection");
}
