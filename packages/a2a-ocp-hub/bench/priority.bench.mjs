// pnpm bench: what ordering a replay page by §4.1 priority costs the hub.
// One page = HUB_REPLAY_PAGE_SIZE stored deliveries of ~1 KiB signed messages.
// Arms, interleaved over rounds in this process:
// - none:     byPriority on a page whose messages carry no `priority` (the fast path: one substring test each)
// - mixed:    byPriority on a page of mixed priorities (each message parsed, then a stable sort)
// - baseline: JSON.parse of every message of the page (what a recipient does with each anyway)
// Prints per-page medians, spread (min–max of the round medians) and ratios to the baseline.
import { createMessage, generateIdentity, signObject } from "@ocp/a2a-ocp-messaging";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { HUB_REPLAY_PAGE_SIZE } from "../dist/limits.js";
import { byPriority } from "../dist/priority.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const REPS = Number(process.env.BENCH_REPS ?? 40);
const PRIORITIES = ["low", "normal", "high", "urgent"];

const alice = generateIdentity("a2a://bench-alice");
function page(withPriority) {
  return Array.from({ length: HUB_REPLAY_PAGE_SIZE }, (_, i) => {
    const message = createMessage({
      type: "ocp.custom.note",
      from: alice.id,
      to: "a2a://bench-bob",
      payload: { text: "x".repeat(800), i },
      ...(withPriority ? { priority: PRIORITIES[(i * 7) % 4] } : {}),
    });
    const raw = JSON.stringify(signObject(message, alice.secretKey, nativeEd25519));
    return { seq: i + 1, id: message.id, raw };
  });
}

const plain = page(false);
const mixed = page(true);
let sink = 0;
const arms = {
  none: () => {
    sink += byPriority(plain).length;
  },
  mixed: () => {
    sink += byPriority(mixed).length;
  },
  baseline: () => {
    for (const d of mixed) sink += JSON.parse(d.raw).payload.i;
  },
};

const samples = Object.fromEntries(Object.keys(arms).map((k) => [k, []]));
for (const arm of Object.values(arms)) for (let i = 0; i < REPS; i++) arm(); // Warm-up.
for (let round = 0; round < ROUNDS; round++) {
  const order = Object.keys(arms);
  if (round % 2 === 1) order.reverse();
  for (const name of order) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < REPS; i++) arms[name]();
    samples[name].push(Number(process.hrtime.bigint() - start) / 1000 / REPS);
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const base = median(samples.baseline);
console.log(
  `priority ordering of one replay page (${HUB_REPLAY_PAGE_SIZE} messages, ~1 KiB each), µs per page; ${ROUNDS} rounds x ${REPS}`,
);
for (const [name, xs] of Object.entries(samples)) {
  const m = median(xs);
  const spread = `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;
  console.log(
    `  ${name.padEnd(9)} median ${m.toFixed(0).padStart(6)} µs  spread ${spread.padStart(13)}  ratio to baseline ${(m / base).toFixed(2)}`,
  );
}
if (sink === 0) console.log("(unreachable)");
