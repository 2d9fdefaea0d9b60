// Round trips per second through spawnStdioProvider, against a raw NDJSON
// echo child over the same kind of pipe, in one run. Prints figures and
// ratios (targets: sequential >= 0.8 of raw, pipelined >= 0.7 of raw).
//
// The machine may be shared: both sides are measured in adjacent short
// rounds, and the ratio is the median of the per-pair ratios, so load that
// comes and goes weighs on both sides alike.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { spawnStdioProvider } from "../dist/index.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 11);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 250);
const WINDOW = 64;
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 5_000);
const here = (name) => fileURLToPath(new URL(name, import.meta.url));
const query = {
  goal: "bench",
  query_text: "a query",
  kinds: ["doc"],
  anchors: [],
  max_frames: 5,
  max_tokens: 1000,
};

/**
 * A raw NDJSON client: JSON.stringify out, split lines and JSON.parse in,
 * nothing else. Its child is started as spawnStdioProvider starts one (own
 * session and process group, scrubbed environment), so the two differ only
 * in what the transport does.
 */
function rawEcho() {
  const child = spawn(process.execPath, [here("echo-child.mjs")], {
    stdio: ["pipe", "pipe", "inherit"],
    detached: true,
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
  });
  const waiting = [];
  let pending = "";
  child.stdout.on("data", (chunk) => {
    const text = pending + chunk.toString("utf8");
    let start = 0;
    let newline = text.indexOf("\n");
    while (newline !== -1) {
      JSON.parse(text.slice(start, newline));
      waiting.shift()();
      start = newline + 1;
      newline = text.indexOf("\n", start);
    }
    pending = text.slice(start);
  });
  const roundTrip = () =>
    new Promise((resolve) => {
      waiting.push(resolve);
      child.stdin.write(`${JSON.stringify({ type: "query", query })}\n`);
    });
  return { roundTrip, close: () => child.kill() };
}

/** Round trips per second of `roundTrip`, one at a time or WINDOW at a time, for about ROUND_MS. */
async function rate(roundTrip, window) {
  let count = 0;
  const start = performance.now();
  const deadline = start + ROUND_MS;
  const worker = async () => {
    while (performance.now() < deadline) {
      for (let i = 0; i < 50; i += 1) await roundTrip();
      count += 50;
    }
  };
  await Promise.all(Array.from({ length: window }, worker));
  return (count * 1000) / (performance.now() - start);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Rates of both sides in ROUNDS pairs of adjacent rounds (which side goes
 * first alternates), after WARM_UP round trips each. The ratio is the median
 * of the per-pair ratios, so load that drifts between pairs cancels out.
 */
async function compare(raw, ours, window) {
  // Warm-up by count, not time: on a loaded machine a short round may end
  // before the JIT has optimised the codec on the hot path.
  for (let i = 0; i < WARM_UP; i += window) {
    await Promise.all(Array.from({ length: window }, () => raw()));
    await Promise.all(Array.from({ length: window }, () => ours()));
  }
  const rawRates = [];
  const ourRates = [];
  const ratios = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    let r;
    let o;
    if (round % 2 === 0) {
      r = await rate(raw, window);
      o = await rate(ours, window);
    } else {
      o = await rate(ours, window);
      r = await rate(raw, window);
    }
    rawRates.push(r);
    ourRates.push(o);
    ratios.push(o / r);
  }
  return { raw: median(rawRates), ours: median(ourRates), ratio: median(ratios) };
}

function provider(args) {
  return spawnStdioProvider({
    id: "bench",
    command: process.execPath,
    args: [here("fast-provider.mjs"), ...args],
  });
}

const raw = rawEcho();
const plain = await provider([]);
const sequential = await compare(raw.roundTrip, () => plain.query(query), 1);
await plain.shutdown();
const correlated = await provider(["--correlation"]);
const pipelined = await compare(raw.roundTrip, () => correlated.query(query), WINDOW);
await correlated.shutdown();
raw.close();

const fmt = (n) => Math.round(n).toLocaleString("en-US").padStart(9);
const line = (name, pair, ours, target) =>
  `  ${name.padEnd(11)} raw echo ${fmt(pair.raw)}   ${ours} ${fmt(pair.ours)}   ratio ${pair.ratio.toFixed(2)} (target ${target})`;
console.log(
  `@ocp/transport-stdio round trips per second (medians of ${ROUNDS} paired rounds of ${ROUND_MS} ms; ratio: median of the paired ratios)`,
);
console.log(line("sequential", sequential, "spawnStdioProvider", "0.80"));
console.log(line("pipelined", pipelined, "correlated, x64   ", "0.70"));
