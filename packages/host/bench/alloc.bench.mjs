// Bytes allocated per stdio round trip in this (the calling) process: the raw
// NDJSON client, the transport alone (spawnStdioProvider), the host's
// queryProvider and its fan-out (queryAll), carrying the same bytes. Unlike
// wall-clock or CPU figures this does not move with the machine's load: each
// arm runs a batch of calls with a young generation large enough that no
// collection runs during it (checked), and the heap's growth over the batch
// is what the calls allocated. Run with
// `node --expose-gc --min-semi-space-size=128 --max-semi-space-size=128 bench/alloc.bench.mjs`.
//
// Not part of `pnpm bench`: a diagnostic for work on this path.
// Env: BENCH_CALLS (2000 per batch), BENCH_WINDOW (1), BENCH_SIZE (small | large).
import { PerformanceObserver } from "node:perf_hooks";
import { benchQuery, benchWireQuery } from "../../transport-stdio/bench/frames.mjs";
import { spawnStdioProvider } from "../../transport-stdio/dist/index.js";
import { Host } from "../dist/index.js";
import { rawStdio, sharedChild } from "./clients.mjs";

const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const WINDOW = Number(process.env.BENCH_WINDOW ?? 1);
const SIZE = process.env.BENCH_SIZE ?? "small";
const BATCHES = 5;

if (typeof globalThis.gc !== "function") {
  console.error(
    "run with: node --expose-gc --min-semi-space-size=128 --max-semi-space-size=128 bench/alloc.bench.mjs",
  );
  process.exit(1);
}

let collections = 0;
new PerformanceObserver((list) => {
  collections += list.getEntries().length;
}).observe({ entryTypes: ["gc"] });

async function run(call, count) {
  let left = count;
  await Promise.all(
    Array.from({ length: WINDOW }, async () => {
      while (left-- > 0) await call();
    }),
  );
}

/** Bytes per call over one batch, or undefined when a collection ran during it. */
async function batch(call) {
  globalThis.gc();
  await new Promise((resolve) => setTimeout(resolve, 20));
  const seen = collections;
  const before = process.memoryUsage().heapUsed;
  await run(call, CALLS);
  const grown = process.memoryUsage().heapUsed - before;
  await new Promise((resolve) => setTimeout(resolve, 20));
  return collections === seen ? grown / CALLS : undefined;
}

const raw = rawStdio(SIZE);
const args = [sharedChild("ocp-provider.mjs"), SIZE];
const transport = await spawnStdioProvider({ id: "t", command: process.execPath, args });
const host = new Host({ warn: (line) => console.error(line) });
await host.addStdio({ id: "host", command: process.execPath, args });
const arms = {
  raw: () => raw.call(benchWireQuery),
  transport: () => transport.query(benchQuery),
  host: () => host.queryProvider("host", benchQuery),
  "host fan-out": () => host.queryAll(benchQuery),
};
for (const call of Object.values(arms)) await run(call, 3000); // warm-up (JIT)
console.log(
  `Bytes allocated per stdio round trip in the calling process (${SIZE}, ${WINDOW} in flight, ${BATCHES} batches of ${CALLS}; node ${process.version}), lowest batch`,
);
const base = [];
for (const [name, call] of Object.entries(arms)) {
  const figures = [];
  for (let i = 0; i < BATCHES; i += 1) {
    const bytes = await batch(call);
    if (bytes !== undefined) figures.push(bytes);
  }
  if (figures.length === 0) {
    console.log(
      `  ${name.padEnd(13)} (a collection ran in every batch: raise the semi-space size)`,
    );
    continue;
  }
  const bytes = Math.min(...figures);
  base.push(bytes);
  const over = base.length > 1 ? `  +${Math.round(bytes - base[0])} over raw` : "";
  console.log(`  ${name.padEnd(13)} ${Math.round(bytes).toString().padStart(6)} B${over}`);
}
raw.close();
await transport.shutdown();
await host.shutdown();
process.exit(0);
