// CPU per stdio round trip, both processes (Linux): the raw NDJSON client and
// child, the transport alone (spawnStdioProvider + serveStdio) and the host
// (Host.queryProvider, T1 audit on), carrying the same bytes, arms
// interleaved over rounds. Each arm's figure is the CPU time its own process
// pair spent per query (every thread, from /proc/<pid>/task/*/schedstat), so
// it does not depend on where the scheduler put the two processes, which
// moves the wall-clock ratios of stdio.bench.mjs from round to round. Run it
// pinned to one core (`taskset -c 1 node bench/cpu.bench.mjs`) and wall time
// equals that CPU.
//
// Not part of `pnpm bench`: a diagnostic for work on this path.
// Env: BENCH_ROUNDS (12), BENCH_CALLS (3000 per arm and round), BENCH_WINDOW (1),
// BENCH_SIZE (small | large).
import { readdirSync, readFileSync } from "node:fs";
import { benchQuery, benchWireQuery } from "../../transport-stdio/bench/frames.mjs";
import { spawnStdioProvider } from "../../transport-stdio/dist/index.js";
import { Host } from "../dist/index.js";
import { rawStdio, sharedChild } from "./clients.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);
const CALLS = Number(process.env.BENCH_CALLS ?? 3000);
const WINDOW = Number(process.env.BENCH_WINDOW ?? 1);
const SIZE = process.env.BENCH_SIZE ?? "small";

if (process.platform !== "linux") {
  console.error("cpu.bench.mjs reads /proc: Linux only");
  process.exit(1);
}

/** CPU time of every thread of `pid` so far, µs. */
function cpuMicros(pid) {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return ns / 1000;
}

/** Pids of this process's children (every thread's `children` list in /proc). */
function childPids() {
  const pids = new Set();
  for (const task of readdirSync(`/proc/${process.pid}/task`)) {
    const list = readFileSync(`/proc/${process.pid}/task/${task}/children`, "utf8").trim();
    for (const pid of list.split(" ").filter(Boolean)) pids.add(Number(pid));
  }
  return pids;
}

/** Runs `start` and returns its result with the pid of the one child process it spawned. */
async function spawned(start) {
  const before = childPids();
  const value = await start();
  const added = [...childPids()].filter((pid) => !before.has(pid));
  if (added.length !== 1) throw new Error(`expected one new child process, found ${added.length}`);
  return { value, pid: added[0] };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function run(call, count) {
  let left = count;
  await Promise.all(
    Array.from({ length: WINDOW }, async () => {
      while (left-- > 0) await call();
    }),
  );
}

const raw = await spawned(() => rawStdio(SIZE));
const transport = await spawned(() =>
  spawnStdioProvider({
    id: "transport",
    command: process.execPath,
    args: [sharedChild("ocp-provider.mjs"), SIZE],
  }),
);
const host = new Host({ warn: (line) => console.error(line) });
const hosted = await spawned(() =>
  host.addStdio({
    id: "host",
    command: process.execPath,
    args: [sharedChild("ocp-provider.mjs"), SIZE],
  }),
);
const arms = {
  raw: { call: () => raw.value.call(benchWireQuery), child: raw.pid },
  transport: { call: () => transport.value.query(benchQuery), child: transport.pid },
  host: { call: () => host.queryProvider("host", benchQuery), child: hosted.pid },
  "host fan-out": { call: () => host.queryAll(benchQuery), child: hosted.pid },
};

for (const arm of Object.values(arms)) await run(arm.call, 2000); // warm-up (JIT)
const names = Object.keys(arms);
const samples = Object.fromEntries(names.map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < names.length; k++) {
    const name = names[(round + k) % names.length];
    const arm = arms[name];
    const parent0 = cpuMicros(process.pid);
    const child0 = cpuMicros(arm.child);
    const wall0 = performance.now();
    await run(arm.call, CALLS);
    samples[name].push({
      wall: ((performance.now() - wall0) * 1000) / CALLS,
      parent: (cpuMicros(process.pid) - parent0) / CALLS,
      child: (cpuMicros(arm.child) - child0) / CALLS,
    });
  }
}

console.log(
  `CPU per stdio round trip (${SIZE}, ${WINDOW} in flight, ${ROUNDS} rounds of ${CALLS} per arm, interleaved; node ${process.version}), µs, median over rounds`,
);
const rawTotal = samples.raw.map((s) => s.parent + s.child);
for (const name of names) {
  const rows = samples[name];
  const total = rows.map((s) => s.parent + s.child);
  const ratios = total.map((t, i) => rawTotal[i] / t);
  console.log(
    `  ${name.padEnd(13)} wall ${median(rows.map((s) => s.wall))
      .toFixed(1)
      .padStart(6)}` +
      `  host side ${median(rows.map((s) => s.parent))
        .toFixed(1)
        .padStart(6)}` +
      `  child ${median(rows.map((s) => s.child))
        .toFixed(1)
        .padStart(6)}` +
      `  both ${median(total).toFixed(1).padStart(6)}` +
      `  raw / this ${median(ratios).toFixed(2)} [${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}]`,
  );
}
raw.value.close();
await transport.value.shutdown();
await host.shutdown();
process.exit(0);
