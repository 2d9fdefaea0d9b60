// The raw baseline client of the stdio benches (transport-stdio and host).
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const RAW_PROVIDER = fileURLToPath(new URL("children/raw-provider.mjs", import.meta.url));

/**
 * The raw baseline over stdio: a child started as spawnStdioProvider starts
 * one (own process group, scrubbed environment, pipes), JSON.stringify of the
 * query envelope with an id out, line split and JSON.parse in, replies
 * matched by id. No validation, no audit, no timeout.
 */
export function rawStdio(size) {
  const proc = spawn(process.execPath, [RAW_PROVIDER, size], {
    stdio: ["pipe", "pipe", "inherit"],
    detached: true,
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
  });
  const waiting = new Map();
  let next = 0;
  let pending = "";
  proc.stdout.on("data", (chunk) => {
    const text = pending + chunk.toString("utf8");
    let start = 0;
    let newline = text.indexOf("\n");
    while (newline !== -1) {
      const reply = JSON.parse(text.slice(start, newline));
      const resolve = waiting.get(reply.id);
      waiting.delete(reply.id);
      resolve(reply.result);
      start = newline + 1;
      newline = text.indexOf("\n", start);
    }
    pending = text.slice(start);
  });
  const call = (query) =>
    new Promise((resolve) => {
      const id = (++next).toString(36);
      waiting.set(id, resolve);
      proc.stdin.write(`${JSON.stringify({ type: "query", id, query })}\n`);
    });
  return { call, close: () => proc.kill() };
}
