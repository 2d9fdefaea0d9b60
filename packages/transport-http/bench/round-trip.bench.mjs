// HTTP query round trips per second through connectHttpProvider, against a
// bare node:http echo server driven by the same client (an undici Pool), in
// one run (target: 0.7). The servers run in a child process; the three are
// measured in short rounds whose order rotates, and each ratio is the median
// of the per-round ratios, so load that comes and goes weighs on all alike.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Pool } from "undici";
import { connectHttpProvider, KEEP_ALIVE_TIMEOUT_MS, MAX_CONNECTIONS } from "../dist/index.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 1_000);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 400);
const query = {
  goal: "bench",
  query_text: "a query",
  kinds: ["doc"],
  anchors: [],
  max_frames: 5,
  max_tokens: 1000,
};

const child = spawn(process.execPath, [fileURLToPath(new URL("servers.mjs", import.meta.url))], {
  stdio: ["pipe", "pipe", "inherit"],
});
const urls = JSON.parse(
  await new Promise((resolve) => createInterface({ input: child.stdout }).once("line", resolve)),
);

/** The raw baseline: the same undici Pool, JSON.stringify out, JSON.parse in. */
const pool = new Pool(new URL(urls.echo).origin, {
  connections: MAX_CONNECTIONS,
  keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
});
async function rawRoundTrip() {
  const response = await pool.request({
    path: "/",
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ type: "query", query }),
  });
  return JSON.parse(await response.body.text());
}

async function rate(roundTrip) {
  let count = 0;
  const start = performance.now();
  while (performance.now() - start < ROUND_MS) {
    for (let i = 0; i < 20; i += 1) await roundTrip();
    count += 20;
  }
  return (count * 1000) / (performance.now() - start);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const viaFastify = await connectHttpProvider({ id: "fastify", url: urls.fastify });
const viaResponder = await connectHttpProvider({ id: "responder", url: urls.responder });
const contestants = {
  raw: rawRoundTrip,
  fastify: () => viaFastify.query(query),
  responder: () => viaResponder.query(query),
};
// Warm-up by count (the JIT), then rounds in which the order of the three
// rotates; each ratio is the median of the per-round ratios to raw.
for (let i = 0; i < WARM_UP; i += 1) {
  for (const run of Object.values(contestants)) await run();
}
const names = Object.keys(contestants);
const rates = { raw: [], fastify: [], responder: [] };
for (let round = 0; round < ROUNDS; round += 1) {
  for (let k = 0; k < names.length; k += 1) {
    const name = names[(round + k) % names.length];
    rates[name].push(await rate(contestants[name]));
  }
}
const fmt = (n) => Math.round(n).toLocaleString("en-US").padStart(7);
console.log(
  `@ocp/transport-http sequential round trips per second (medians of ${ROUNDS} rounds of ${ROUND_MS} ms; ratio: median of the per-round ratios)`,
);
console.log(
  `  raw: undici Pool -> bare node:http echo server                   ${fmt(median(rates.raw))}`,
);
for (const [name, label] of [
  ["fastify", "connectHttpProvider -> createHttpProviderServer (fastify)"],
  ["responder", "connectHttpProvider -> bare node:http OCP responder      "],
]) {
  const ratio = median(rates[name].map((ours, round) => ours / rates.raw[round]));
  console.log(
    `  ${label}        ${fmt(median(rates[name]))}   ratio ${ratio.toFixed(2)} (target 0.70)`,
  );
}
await Promise.all([pool.close(), viaFastify.shutdown(), viaResponder.shutdown()]);
child.stdin.end();
process.exit(0);
