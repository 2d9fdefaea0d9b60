// `pnpm bench` for @ocp/transport-http, sequential round trips per second,
// arms interleaved over rounds. The servers run in a child process
// (servers.mjs): a bare node:http server answering with the same reply bytes
// (JSON.parse of the body, JSON.stringify of the reply) and
// createHttpProviderServer (fastify, guard rail on) serving the same frames.
//   server: one raw client (an undici Pool: JSON.stringify out, JSON.parse in)
//           against each server; goal 0.85 of bare node:http.
//   client: connectHttpProvider against createHttpProviderServer, against the
//           raw client and server; goal 0.7 of raw.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Pool } from "undici";
import { benchQuery, benchWireQuery, expectFrames } from "../../transport-stdio/bench/frames.mjs";
import { compare, ROUND_MS, ROUNDS, report } from "../../transport-stdio/bench/harness.mjs";
import { connectHttpProvider } from "../dist/index.js";

async function servers(size) {
  const proc = spawn(
    process.execPath,
    [fileURLToPath(new URL("servers.mjs", import.meta.url)), size],
    {
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  const urls = JSON.parse(
    await new Promise((resolve) => createInterface({ input: proc.stdout }).once("line", resolve)),
  );
  return { urls, close: () => proc.stdin.end() };
}

/** The raw client: the same undici Pool connectHttpProvider uses, nothing else. */
function rawClient(url) {
  const pool = new Pool(new URL(url).origin, { connections: 8 });
  let next = 0;
  const call = async (query) => {
    const response = await pool.request({
      path: new URL(url).pathname,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "query", id: (++next).toString(36), query }),
    });
    const reply = JSON.parse(await response.body.text());
    if (reply.type !== "frames") throw new Error(`unexpected reply ${reply.type}`);
    return reply.result;
  };
  return { call, close: () => pool.close() };
}

console.log(
  `@ocp/transport-http sequential round trips per second (node ${process.version}; ${ROUNDS} rounds of ${ROUND_MS} ms per arm, arms interleaved; ratio: median of per-round ratios [lowest-highest])`,
);
for (const size of ["small", "large"]) {
  if (process.env.BENCH_CASE !== undefined && size !== process.env.BENCH_CASE) continue;
  const server = await servers(size);
  const raw = rawClient(server.urls.raw);
  const rawToFastify = rawClient(server.urls.fastify);
  const ours = await connectHttpProvider({ id: "bench", url: server.urls.fastify });
  await expectFrames("raw", size, raw.call(benchWireQuery));
  await expectFrames("raw to fastify", size, rawToFastify.call(benchWireQuery));
  await expectFrames("ours", size, ours.query(benchQuery));
  const result = await compare(
    {
      "raw client -> bare node:http": () => raw.call(benchWireQuery),
      "raw client -> createHttpProviderServer": () => rawToFastify.call(benchWireQuery),
      "connectHttpProvider -> createHttpProviderServer": () => ours.query(benchQuery),
    },
    1,
  );
  report(size === "small" ? "small frame (~300 B)" : "~20 KB of frames", result, {
    "raw client -> createHttpProviderServer": [0.85],
    "connectHttpProvider -> createHttpProviderServer": [0.7],
  });
  await Promise.all([raw.close(), rawToFastify.close(), ours.shutdown()]);
  server.close();
}
process.exit(0);
