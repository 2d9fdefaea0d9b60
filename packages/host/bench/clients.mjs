// The raw and MCP clients of the transport benches.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

export const child = (name) => fileURLToPath(new URL(`children/${name}`, import.meta.url));
/** The children shared with the transport bench (same bytes on both sides): raw and serveStdio providers. */
export const sharedChild = (name) =>
  fileURLToPath(new URL(`../../transport-stdio/bench/children/${name}`, import.meta.url));

/**
 * The raw baseline over stdio: a child started as spawnStdioProvider starts
 * one (own process group, scrubbed environment, pipes), JSON.stringify of the
 * query envelope with an id out, line split and JSON.parse in, replies
 * matched by id. No validation, no audit, no timeout.
 */
export function rawStdio(size) {
  const proc = spawn(process.execPath, [sharedChild("raw-provider.mjs"), size], {
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

/** The MCP TypeScript SDK: Client + StdioClientTransport calling the bench tool. */
export async function mcpStdio(size) {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [child("mcp-server.mjs"), size],
      stderr: "inherit",
    }),
  );
  const call = async (query) => {
    const reply = await client.callTool({
      name: "query",
      arguments: { goal: query.goal, max_tokens: query.max_tokens },
    });
    return JSON.parse(reply.content[0].text);
  };
  return { call, close: () => client.close() };
}
