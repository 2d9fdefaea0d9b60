// Interleaved measurement for the transport benches: every arm runs in short
// rounds whose order rotates, after a warm-up (the JIT) of a count of calls
// and one untimed round; the figure of an arm is its median rate, its ratio
// the median of its per-round ratios to the raw arm of the same round, and
// the spread the lowest and highest of those ratios. Load that comes and goes
// on a shared machine weighs on all arms alike. Single rounds of the stdio
// arms swing from about 0.5 to 1.1 of raw on a 2-core machine, so the median
// needs a few dozen rounds to settle (the host's sequential ratio, same code:
// 0.67 to 0.79 over runs of 15 rounds, 0.74 to 0.75 over runs of 31): 21 by
// default, BENCH_ROUNDS for more.

export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 21);
export const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 300);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 2_000);

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Calls per second of `call`, `window` at a time, for about ROUND_MS. */
async function rate(call, window) {
  let count = 0;
  const start = performance.now();
  const deadline = start + ROUND_MS;
  const worker = async () => {
    while (performance.now() < deadline) {
      for (let i = 0; i < 10; i += 1) await call();
      count += 10;
    }
  };
  await Promise.all(Array.from({ length: window }, worker));
  return (count * 1000) / (performance.now() - start);
}

/**
 * Measures `arms` (name -> call; the first is the raw baseline) `window`
 * calls at a time. Returns per arm: median rate, median ratio to raw, spread.
 */
export async function compare(arms, window) {
  const names = Object.keys(arms);
  for (const name of names) {
    for (let i = 0; i < WARM_UP; i += window) {
      await Promise.all(Array.from({ length: window }, () => arms[name]()));
    }
    // And one untimed round: a count alone left the arm with the deepest call
    // graph (the host) still tiering up in the first timed round.
    await rate(arms[name], window);
  }
  const rates = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (let k = 0; k < names.length; k += 1) {
      const name = names[(round + k) % names.length];
      rates[name].push(await rate(arms[name], window));
    }
  }
  const raw = rates[names[0]];
  const out = {};
  for (const name of names) {
    const ratios = rates[name].map((r, i) => r / raw[i]);
    out[name] = {
      rate: median(rates[name]),
      ratio: median(ratios),
      low: Math.min(...ratios),
      high: Math.max(...ratios),
      ratios,
      rates: rates[name],
    };
  }
  return out;
}

const fmt = (n) => Math.round(n).toLocaleString("en-US").padStart(8);

/**
 * Prints one case: every arm's median calls/s, ratio to raw with its spread,
 * and the goal when there is one (`goals`: name -> [ratio, against]).
 */
export function report(title, result, goals = {}) {
  console.log(title);
  const names = Object.keys(result);
  for (const name of names) {
    const { rate, ratio, low, high } = result[name];
    let line = `  ${name.padEnd(48)} ${fmt(rate)}/s  ratio to raw ${ratio.toFixed(2)} [${low.toFixed(2)}-${high.toFixed(2)}]`;
    const goal = goals[name];
    if (goal !== undefined) {
      const [target, against = names[0]] = goal;
      const value = median(result[name].rates.map((r, i) => r / result[against].rates[i]));
      const verdict = value >= target ? "met" : `MISSED by ${(target - value).toFixed(2)}`;
      line += `  goal ${target} of ${against}: ${value.toFixed(2)} ${verdict}`;
    }
    console.log(line);
  }
}
