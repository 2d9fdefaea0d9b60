/**
 * Helpers of the browser tests: Debian's headless Chromium on a fresh
 * profile, the `ocp-hub --dashboard` process, agent processes driven over
 * stdin/stdout, and screenshots written to the gitignored `test-artifacts/`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { expect } from "vitest";

export const CHROMIUM = "/usr/bin/chromium";
const packageDir = fileURLToPath(new URL("..", import.meta.url));
export const ARTIFACTS = join(packageDir, "test-artifacts");

/** Chromium on a fresh user-data-dir; fails with the install command when it is missing. */
export async function launchChromium(): Promise<{
  context: BrowserContext;
  close: () => Promise<void>;
}> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}: the dashboard's browser tests run Debian's chromium. ` +
        "Install it with `sudo apt-get update && sudo apt-get install -y chromium` (without sudo as root).",
    );
  }
  const profile = await mkdtemp(join(tmpdir(), "ocp-dashboard-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-proxy-server",
    ],
  });
  return {
    context,
    close: async () => {
      await context.close().catch(() => undefined);
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Records page errors and console errors, to assert there were none. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  return problems;
}

/** A full-page screenshot in test-artifacts/, checked to exist and not be empty. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  expect(existsSync(path)).toBe(true);
  expect(statSync(path).size).toBeGreaterThan(5_000);
  return path;
}

const children: ChildProcess[] = [];

/** Stops every process these helpers started (SIGTERM, then SIGKILL after 5 s). */
export async function stopProcesses(): Promise<void> {
  await Promise.all(
    children.splice(0).map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
          child.once("exit", () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill("SIGTERM");
        }),
    ),
  );
}

function bounded<T>(promise: Promise<T>, what: string, ms = 30_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out: ${what}`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** `ocp-hub --dashboard` (the built CLI) on a fresh SQLite file: its ws URL and dashboard URL. */
export async function startHubProcess(
  dir: string,
  extra: string[] = [],
): Promise<{ hubUrl: string; dashboardUrl: string }> {
  const hubPackage = dirname(
    createRequire(import.meta.url).resolve("@ocp/a2a-ocp-hub/package.json"),
  );
  const cli = join(hubPackage, "dist", "cli.js");
  const child = spawn(
    process.execPath,
    [cli, "--db", join(dir, "hub.sqlite"), "--port", "0", "--dashboard", ...extra],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  children.push(child);
  const hubUrl = bounded(
    new Promise<string>((resolve) =>
      createInterface({ input: child.stdout! }).once("line", resolve),
    ),
    "the hub's URL",
  );
  const dashboardUrl = bounded(
    new Promise<string>((resolve) =>
      createInterface({ input: child.stderr! }).on("line", (line) => {
        const found = /dashboard on (http:\/\/\S+)/.exec(line);
        if (found) resolve(found[1]!);
      }),
    ),
    "the dashboard's URL",
  );
  return { hubUrl: await hubUrl, dashboardUrl: await dashboardUrl };
}

export interface AgentProcess {
  id: string;
  run(cmd: Record<string, unknown>): Promise<Record<string, unknown>>;
}

let nextCommand = 0;
/** An agent process (test/fixtures/agent.mjs) connected to `hubUrl` as a2a://`name`. */
export async function startAgentProcess(name: string, hubUrl: string): Promise<AgentProcess> {
  const script = join(packageDir, "test", "fixtures", "agent.mjs");
  const child = spawn(process.execPath, [script, name, hubUrl], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  children.push(child);
  const waiting = new Map<number, (event: Record<string, unknown>) => void>();
  let ready: (id: string) => void = () => {};
  const readyId = new Promise<string>((resolve) => {
    ready = resolve;
  });
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const event = JSON.parse(line) as Record<string, unknown>;
    if (event["ev"] === "ready") ready(String(event["id"]));
    else waiting.get(Number(event["id"]))?.(event);
  });
  const id = await bounded(readyId, `${name} ready`);
  return {
    id,
    async run(cmd) {
      const n = ++nextCommand;
      const answer = new Promise<Record<string, unknown>>((resolve) => waiting.set(n, resolve));
      child.stdin!.write(`${JSON.stringify({ ...cmd, id: n })}\n`);
      const result = await bounded(answer, `${name} ${String(cmd["cmd"])}`);
      if (result["ev"] === "failed") throw new Error(`${name}: ${String(result["message"])}`);
      return result;
    },
  };
}
