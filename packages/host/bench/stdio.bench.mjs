// `pnpm bench` for @ocp/host over stdio: the real host (Host.queryProvider,
// spawnStdioProvider, audit with T1 on) talking to the real provider server
// (serveStdio, guard rail on), against a raw NDJSON client and child carrying
// the same query and the same reply bytes over the same kind of pipe, and the
// MCP TypeScript SDK (a tool call whose result is the same frames), in one
// run with the arms interleaved. The host is measured both ways a caller
// asks: one provider (`queryProvider`) and the fan-out (`queryAll`, here over
// its one provider), each against the same goal; the transport alone
// (spawnStdioProvider, no host) is shown beside them, so that what the host
// adds to its transport reads off the same run. Figures: calls per second,
// ratio to raw.

import { benchQuery, benchWireQuery } from "../../transport-stdio/bench/frames.mjs";
import { compare, ROUND_MS, ROUNDS, report } from "../../transport-stdio/bench/harness.mjs";
import { spawnStdioProvider } from "../../transport-stdio/dist/index.js";
import { Host } from "../dist/index.js";
import { expectFrames, mcpStdio, rawStdio, sharedChild } from "./clients.mjs";

async function hostStdio(size) {
  const host = new Host({ warn: (line) => console.error(line) });
  await host.addStdio({
    id: "bench",
    command: process.execPath,
    args: [sharedChild("ocp-provider.mjs"), size],
  });
  return {
    call: (query) => host.queryProvider("bench", query),
    fanOut: (query) => host.queryAll(query),
    close: () => host.shutdown(),
  };
}

/** The transport alone: spawnStdioProvider and its query, no host around it. */
async function transportStdio(size) {
  const provider = await spawnStdioProvider({
    id: "bench",
    command: process.execPath,
    args: [sharedChild("ocp-provider.mjs"), size],
  });
  return { call: (query) => provider.query(query), close: () => provider.shutdown() };
}

/** The fan-out's answer as the other arms give theirs (its frames), for the check before timing. */
const framesOf = async (fanOut) => ({ frames: (await fanOut).accepted.map((a) => a.frame) });

const cases = [
  {
    title: "small frame (~300 B), 1 in flight",
    size: "small",
    window: 1,
    goals: { host: [0.8], "host fan-out": [0.8], "host ": [1.5, "mcp"] },
  },
  {
    title: "~20 KB of frames, 1 in flight",
    size: "large",
    window: 1,
    goals: { host: [0.6], "host fan-out": [0.6] },
  },
  {
    title: "small frame (~300 B), 64 in flight",
    size: "small",
    window: 64,
    goals: { host: [0.7], "host fan-out": [0.7] },
  },
];

const only = process.env.BENCH_CASE;
console.log(
  `@ocp/host over stdio (node ${process.version}; ${ROUNDS} rounds of ${ROUND_MS} ms per arm, arms interleaved; ratio: median of per-round ratios [lowest-highest])`,
);
for (const c of cases) {
  if (only !== undefined && !c.title.includes(only)) continue;
  const raw = rawStdio(c.size);
  const host = await hostStdio(c.size);
  const transport = await transportStdio(c.size);
  const mcp = await mcpStdio(c.size);
  await expectFrames("raw", c.size, raw.call(benchWireQuery));
  await expectFrames("host", c.size, host.call(benchQuery));
  await expectFrames("host fan-out", c.size, framesOf(host.fanOut(benchQuery)));
  await expectFrames("transport", c.size, transport.call(benchQuery));
  await expectFrames("mcp", c.size, mcp.call(benchQuery));
  const result = await compare(
    {
      "raw NDJSON (parse/stringify only)": () => raw.call(benchWireQuery),
      host: () => host.call(benchQuery),
      "host fan-out": () => host.fanOut(benchQuery),
      "transport alone (no host)": () => transport.call(benchQuery),
      mcp: () => mcp.call(benchQuery),
    },
    c.window,
  );
  // The second host goal (against the MCP SDK) is reported on its own line.
  const goals = { host: c.goals.host, "host fan-out": c.goals["host fan-out"] };
  report(c.title, result, goals);
  if (c.goals["host "] !== undefined) {
    const [target, against] = c.goals["host "];
    report(
      `  (host against the MCP SDK)`,
      { [against]: result[against], host: result.host },
      { host: [target, against] },
    );
  }
  raw.close();
  await host.close();
  await transport.close();
  await mcp.close();
}
process.exit(0);
