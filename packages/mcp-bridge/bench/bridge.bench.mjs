// The bridge's added cost per call, beside a direct call, in one run:
//   mcp direct      MCP SDK Client -> notes-server: resources/read
//   ocp-from-mcp    Open Context host -> ocp-from-mcp -> notes-server: query
//   ocp direct      Open Context host -> demo provider: query
//   ocp-to-mcp      MCP SDK Client -> ocp-to-mcp -> demo provider: tools/call query_context
// Arms are interleaved over rounds (the order rotates each round); each
// round times CALLS calls per arm. Prints the median per-call time of each
// arm over the rounds, the spread (min-max of round medians) and the added
// cost of each bridge over its direct baseline. Run: pnpm build && pnpm bench
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { spawnStdioProvider } from "@ocp/transport-stdio";

const ROUNDS = Number(process.env.ROUNDS ?? 10);
const CALLS = Number(process.env.CALLS ?? 40);
const root = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(import.meta.url);
const demo = join(dirname(require.resolve("@ocp/demo-provider/package.json")), "dist", "cli.js");
const notes = join(root, "examples", "notes-server.mjs");
const node = process.execPath;

async function mcpClient(args) {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: node, args, stderr: "ignore" }));
  return client;
}
const ocpQuery = (goal) => ({ goal, kinds: [], anchors: [], max_tokens: 4096, max_frames: 8 });

const mcpDirect = await mcpClient([notes]);
const fromMcp = await spawnStdioProvider({
  id: "from-mcp",
  command: node,
  args: [join(root, "dist", "from-mcp-cli.js"), "--", node, notes],
});
const ocpDirect = await spawnStdioProvider({ id: "demo", command: node, args: [demo, "--quiet"] });
const toMcp = await mcpClient([join(root, "dist", "to-mcp-cli.js"), "--", node, demo, "--quiet"]);

const GOAL = "how are versions compatible?";
const arms = {
  "mcp direct": () => mcpDirect.readResource({ uri: "note://budgets" }),
  "ocp-from-mcp": () => fromMcp.query(ocpQuery("token budgets")),
  "ocp direct": () => ocpDirect.query(ocpQuery(GOAL)),
  "ocp-to-mcp": () =>
    toMcp.callTool({ name: "query_context", arguments: { goal: GOAL, max_tokens: 4096 } }),
};
const names = Object.keys(arms);
for (const name of names) for (let i = 0; i < 5; i += 1) await arms[name](); // warm-up

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const perRound = Object.fromEntries(names.map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round += 1) {
  const order = names.map((_, i) => names[(i + round) % names.length]);
  for (const name of order) {
    const times = [];
    for (let i = 0; i < CALLS; i += 1) {
      const start = process.hrtime.bigint();
      await arms[name]();
      times.push(Number(process.hrtime.bigint() - start) / 1e3);
    }
    perRound[name].push(median(times));
  }
}

const fmt = (us) => `${us.toFixed(0).padStart(7)} µs`;
console.log(
  `per-call time, ${ROUNDS} interleaved rounds × ${CALLS} calls per arm (median of round medians; spread min–max)`,
);
const stats = {};
for (const name of names) {
  const xs = perRound[name];
  stats[name] = median(xs);
  console.log(
    `  ${name.padEnd(14)} ${fmt(stats[name])}   spread ${fmt(Math.min(...xs)).trim()} – ${fmt(Math.max(...xs)).trim()}`,
  );
}
const added = (bridge, base) => {
  const diffs = perRound[bridge].map((x, i) => x - perRound[base][i]);
  console.log(
    `  ${bridge} adds ${fmt(median(diffs)).trim()} per call over ${base} (×${(stats[bridge] / stats[base]).toFixed(2)}; spread ${fmt(Math.min(...diffs)).trim()} – ${fmt(Math.max(...diffs)).trim()})`,
  );
};
added("ocp-from-mcp", "mcp direct");
added("ocp-to-mcp", "ocp direct");

await Promise.all([mcpDirect.close(), toMcp.close(), fromMcp.shutdown(), ocpDirect.shutdown()]);
process.exit(0);
