// Wall time of one full conformance run against the honest fixture, per
// transport, beside the in-process run as the baseline (same process, same
// machine). `pnpm bench` after `pnpm build`. Stdio runs are dominated by the
// malformed-input probe's settle time (5 × MALFORMED_SETTLE_MS).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { createFixtureProvider, runConformance } from "../dist/index.js";
import { fixtureCommand } from "../dist/internal.js";

const RUNS = 5;

async function time(label, run) {
  const samples = [];
  for (let index = 0; index < RUNS; index += 1) {
    const started = performance.now();
    const report = await run();
    samples.push(performance.now() - started);
    if (!report.conformant) throw new Error(`${label}: the honest fixture was not conformant`);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

const baseline = await time("in-process", () =>
  runConformance({ create: () => createFixtureProvider() }),
);
const stdio = await time("stdio", () => runConformance(fixtureCommand()));

// The fixture's HTTP server exits on shutdown: one server per run (its start is timed too).
const { command, args } = fixtureCommand("--http", "0");
const http = await time("http", async () => {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
  const [endpoint] = await once(createInterface({ input: child.stdout }), "line");
  try {
    return await runConformance({ url: endpoint });
  } finally {
    child.kill();
  }
});

console.log(`median of ${RUNS} full runs against the honest fixture`);
console.log(`  in-process  ${baseline.toFixed(0).padStart(6)} ms  (baseline)`);
console.log(`  stdio       ${stdio.toFixed(0).padStart(6)} ms  ×${(stdio / baseline).toFixed(1)}`);
console.log(`  http        ${http.toFixed(0).padStart(6)} ms  ×${(http / baseline).toFixed(1)}`);
