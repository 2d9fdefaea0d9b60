import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { eventually, fixture, isAlive } from "./helpers.js";

interface Host {
  readonly child: ChildProcess;
  /** Pid of the provider the host spawned. */
  readonly providerPid: number;
  /** Pid of the provider's own child (grandchild fixture only). */
  readonly grandchildPid: number | undefined;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs test/fixtures/host.mjs, which spawns `script` as a provider, and waits for its report. */
async function runHost(how: string, script: string, args: string[] = []): Promise<Host> {
  const pidFile = join(mkdtempSync(join(tmpdir(), "ocp-host-")), "grandchild.pid");
  const child = spawn(process.execPath, [fixture("host.mjs"), how, script, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: process.env.PATH, PID_FILE: pidFile },
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  const lines = createInterface({ input: child.stdout! });
  const report = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("host did not report in 10 s")), 10_000);
    lines.once("line", (line) => {
      clearTimeout(timer);
      resolve(line);
    });
  });
  const { pid } = JSON.parse(report) as { pid: number };
  let grandchildPid: number | undefined;
  if (script === "grandchild.mjs") grandchildPid = Number(readFileSync(pidFile, "utf8"));
  return { child, providerPid: pid, grandchildPid, exited };
}

async function within<T>(promise: Promise<T>, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms);
  });
  return Promise.race([promise, bound]).finally(() => clearTimeout(timer));
}

async function expectAllGone(host: Host): Promise<void> {
  const pids = [
    host.providerPid,
    ...(host.grandchildPid === undefined ? [] : [host.grandchildPid]),
  ];
  expect(await eventually(() => pids.every((pid) => !isAlive(pid)))).toBe(true);
}

describe("a host that goes away leaves no provider or grandchild running", () => {
  it("on SIGTERM: kills the provider's whole group and still dies of SIGTERM", async () => {
    const host = await runHost("wait", "grandchild.mjs");
    expect(isAlive(host.grandchildPid!)).toBe(true);
    host.child.kill("SIGTERM");
    expect(await within(host.exited)).toEqual({ code: null, signal: "SIGTERM" });
    await expectAllGone(host);
  });

  it("on SIGINT: kills the provider's whole group and still dies of SIGINT", async () => {
    const host = await runHost("wait", "grandchild.mjs");
    host.child.kill("SIGINT");
    expect(await within(host.exited)).toEqual({ code: null, signal: "SIGINT" });
    await expectAllGone(host);
  });

  it("on process.exit(): kills the provider's whole group", async () => {
    const host = await runHost("exit", "grandchild.mjs");
    expect((await within(host.exited)).code).toBe(0);
    await expectAllGone(host);
  });

  it("on an uncaught error: kills the provider's whole group and exits 1", async () => {
    const host = await runHost("throw", "grandchild.mjs");
    expect((await within(host.exited)).code).toBe(1);
    await expectAllGone(host);
  });

  it("when its work is done: an idle provider does not keep the host alive, and dies with it", async () => {
    const host = await runHost("idle", "grandchild.mjs");
    expect((await within(host.exited)).code).toBe(0);
    await expectAllGone(host);
  });

  it("killed outright (SIGKILL): a serveStdio provider exits when its stdin closes", async () => {
    const host = await runHost("wait", "served.mjs");
    expect(isAlive(host.providerPid)).toBe(true);
    host.child.kill("SIGKILL");
    expect((await within(host.exited)).signal).toBe("SIGKILL");
    await expectAllGone(host);
  });
});
