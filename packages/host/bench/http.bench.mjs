// `pnpm bench` for @ocp/host over HTTP: the real host (Host.queryProvider via
// addHttp, consent granted, audit with T1 on) talking to the real provider
// server (createHttpProviderServer, fastify), against a raw client (an undici
// Pool, JSON.stringify out, JSON.parse in) talking to a bare node:http server
// that answers with the same reply bytes, arms interleaved. Goal: 0.7 of raw.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Pool } from "undici";
import { benchQuery, benchWireQuery } from "../../transport-stdio/bench/frames.mjs";
import { compare, ROUND_MS, ROUNDS, report } from "../../transport-stdio/bench/harness.mjs";
import { Host } from "../dist/index.js";
import { expectFrames } from "./clients.mjs";

// The transport bench's servers (bare node:http and createHttpProviderServer, same reply bytes).
const httpServers = fileURLToPath(
  new URL("../../transport-http/bench/servers.mjs", import.meta.url),
);

async function servers(size) {
  const proc = spawn(process.execPath, [httpServers, size], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const urls = JSON.parse(
    await new Promise((resolve) => createInterface({ input: proc.stdout }).once("line", resolve)),
  );
  return { urls, close: () => proc.stdin.end() };
}

function rawHttp(url) {
  const pool = new Pool(new URL(url).origin, { connections: 8 });
  let next = 0;
  const call = async (query) => {
    const response = await pool.request({
      path: "/",
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "query", id: (++next).toString(36), query }),
    });
    return JSON.parse(await response.body.text()).result;
  };
  return { call, close: () => pool.close() };
}

const cases = [
  { title: "small frame (~300 B), 1 in flight", size: "small", window: 1 },
  { title: "~20 KB of frames, 1 in flight", size: "large", window: 1 },
];
console.log(
  `@ocp/host over HTTP (node ${process.version}; ${ROUNDS} rounds of ${ROUND_MS} ms per arm, arms interleaved; ratio: median of per-round ratios [lowest-highest])`,
);
for (const c of cases) {
  if (process.env.BENCH_CASE !== undefined && !c.title.includes(process.env.BENCH_CASE)) continue;
  const server = await servers(c.size);
  const raw = rawHttp(server.urls.raw);
  const host = new Host({ warn: (line) => console.error(line) });
  await host.addHttp({ id: "bench", url: server.urls.fastify });
  await host.grantConsent("bench", { grantedBy: "bench" });
  await expectFrames("raw", c.size, raw.call(benchWireQuery));
  await expectFrames("host", c.size, host.queryProvider("bench", benchQuery));
  const result = await compare(
    {
      "raw HTTP (undici + node:http)": () => raw.call(benchWireQuery),
      "host -> createHttpProviderServer": () => host.queryProvider("bench", benchQuery),
    },
    c.window,
  );
  report(c.title, result, { "host -> createHttpProviderServer": [0.7] });
  await raw.close();
  await host.shutdown();
  server.close();
}
process.exit(0);
