// The demos' child processes: agents driven by JSON lines (a command in on
// stdin, events out on stdout), and stopping every child at the end.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { bounded } from "./wait.mjs";

/** The `ocp-hub` CLI (the hub package's built dist/cli.js) the demos start their hubs with. */
export const hubCli = join(
  createRequire(import.meta.url).resolve("@ocp/a2a-ocp-hub/package.json"),
  "..",
  "dist",
  "cli.js",
);

let nextId = 0;

/**
 * Starts `node script ...args` as the agent `name` and adds it to `children`
 * (a Set; it leaves the set when it exits). `onEvent` sees every event the
 * agent prints. `waitFor(test, what)` resolves with the first later event
 * that passes `test` (bounded; rejects if the agent exits first); `run(cmd)`
 * sends one command and resolves with its `done` event, or rejects with the
 * agent's `failed` message; `ready` is the agent's `ready` event.
 */
export function commandedProcess(script, args, { name, children, onEvent = () => {} }) {
  const child = spawn(process.execPath, [script, ...args], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  children.add(child);
  child.once("exit", () => children.delete(child));
  const waiters = new Set();
  createInterface({ input: child.stdout }).on("line", (line) => {
    const event = JSON.parse(line);
    onEvent(event);
    for (const waiter of [...waiters]) {
      if (!waiter.test(event)) continue;
      waiters.delete(waiter);
      waiter.resolve(event);
    }
  });
  child.once("exit", (code) => {
    for (const waiter of waiters) waiter.reject(new Error(`${name} exited (${code})`));
    waiters.clear();
  });
  const waitFor = (test, what) =>
    bounded(
      new Promise((resolve, reject) => waiters.add({ test, resolve, reject })),
      `${name}: ${what}`,
    );
  const ready = waitFor((e) => e.ev === "ready", "ready");
  return {
    child,
    waitFor,
    ready,
    async run(cmd) {
      const id = ++nextId;
      const done = waitFor((e) => e.id === id && (e.ev === "done" || e.ev === "failed"), cmd.cmd);
      child.stdin.write(`${JSON.stringify({ ...cmd, id })}\n`);
      const result = await done;
      if (result.ev === "failed") throw new Error(`${name} ${cmd.cmd}: ${result.message}`);
      return result;
    },
  };
}

/** Stops every child still running (SIGTERM, SIGKILL after 5 s) and resolves once all are gone. */
export function stopAll(children) {
  return Promise.all(
    [...children].map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => {
            child.kill("SIGKILL");
            resolve();
          }, 5000);
          child.once("exit", () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill("SIGTERM");
        }),
    ),
  );
}
