import { spawn } from "node:child_process";
import { spawnStdioProvider } from "@ocp/transport-stdio";
import { Host } from "../dist/index.js";
import { child, rawStdio } from "./clients.mjs";
import { benchQuery } from "./frames.mjs";
import { compare, report } from "./harness.mjs";

const size = process.argv[2] ?? "small";
function rawTo(script) {
  const proc = spawn(process.execPath, [child(script), size], {
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
    let nl = text.indexOf("\n");
    while (nl !== -1) {
      const reply = JSON.parse(text.slice(start, nl));
      const r = waiting.get(reply.id ?? "hs");
      waiting.delete(reply.id ?? "hs");
      r?.(reply.result);
      start = nl + 1;
      nl = text.indexOf("\n", start);
    }
    pending = text.slice(start);
  });
  const call = (query) =>
    new Promise((resolve) => {
      const id = (++next).toString(36);
      waiting.set(id, resolve);
      proc.stdin.write(`${JSON.stringify({ type: "query", id, query })}\n`);
    });
  const hs = new Promise((resolve) => {
    waiting.set("hs", resolve);
    proc.stdin.write(
      '{"type":"handshake","protocol_version":"ocp/1.0-draft","extensions":["correlation"]}\n',
    );
  });
  return { call, hs, close: () => proc.kill() };
}
const raw = rawStdio(size);
const rawOcp = rawTo("ocp-provider.mjs");
await rawOcp.hs;
const t = await spawnStdioProvider({
  id: "t",
  command: process.execPath,
  args: [child("ocp-provider.mjs"), size],
});
const host = new Host();
await host.addStdio({
  id: "h",
  command: process.execPath,
  args: [child("ocp-provider.mjs"), size],
});
const r = await compare(
  {
    raw: () => raw.call(benchQuery),
    "raw->serveStdio": () => rawOcp.call(benchQuery),
    "transport->serveStdio": () => t.query(benchQuery),
    "host->serveStdio": () => host.queryProvider("h", benchQuery),
  },
  Number(process.argv[3] ?? 1),
);
report("exp " + size, r);
process.exit(0);
