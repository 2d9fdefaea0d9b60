// The federation demo's agent processes (bin/federation-demo-agent.mjs),
// driven by JSON lines: each keeps every message it received, so the demo
// checks what did (and did not) arrive instead of asserting it.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createAgentProfile, generateIdentity } from "@ocp/a2a-ocp-messaging";
import { saveIdentity } from "@ocp/a2a-ocp-messaging/node";
import { bounded, until } from "./wait.mjs";

const agentBin = fileURLToPath(new URL("../../bin/federation-demo-agent.mjs", import.meta.url));
let nextId = 0;

/**
 * Starts agent `name` (`acme/alice`) on the hub at `url`, with the identity
 * and card of `keyFile` (see {@link teamMember}) or new ones; resolves once
 * it registered.
 */
export async function startAgent(name, url, children, keyFile) {
  const child = spawn(process.execPath, [agentBin, name, url, ...(keyFile ? [keyFile] : [])], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  children.add(child);
  child.once("exit", () => children.delete(child));
  const waiters = new Set();
  const received = [];
  createInterface({ input: child.stdout }).on("line", (line) => {
    const event = JSON.parse(line);
    if (event.ev === "message") received.push(event);
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
  const { id } = await ready;
  return {
    name,
    id,
    received,
    /** Titles of every node received so far. */
    titles: () => received.flatMap((m) => m.titles),
    /** Runs one command; resolves with the agent's answer, rejects when it failed. */
    async run(cmd) {
      const n = ++nextId;
      const done = waitFor((e) => e.id === n && (e.ev === "done" || e.ev === "failed"), cmd.cmd);
      child.stdin.write(`${JSON.stringify({ ...cmd, id: n })}\n`);
      const result = await done;
      if (result.ev === "failed") throw new Error(`${name} ${cmd.cmd}: ${result.message}`);
      return result;
    },
    /** Waits until a received message passes `test`. */
    receives: (test, what) => until(() => received.find(test), `${name} receives ${what}`),
  };
}

/**
 * Makes `name`'s identity file and public signed card in `dir`, for a hub
 * started with `--allow`; returns the key file and the allow-list entry
 * (the card with the team the hub gives it).
 */
export async function teamMember(dir, name, team) {
  const identity = generateIdentity(`a2a://${name}`);
  const keyFile = join(dir, `${name.replace("/", "-")}.key`);
  await saveIdentity(keyFile, identity);
  const profile = createAgentProfile(identity, { extra: { visibility: "public" } });
  writeFileSync(`${keyFile}.profile.json`, JSON.stringify(profile));
  return { keyFile, entry: { profile, team } };
}
