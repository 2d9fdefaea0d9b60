#!/usr/bin/env node
// Broadcast throughput of @ocp/transport-ws beside a raw `ws` broadcast of the
// same bytes, in the same run, with 10 and 200 subscribers (receivers in a
// worker thread). Runs alternate between the two so drift hits both; medians
// are printed with the ratio: end-to-end deliveries per second, and the
// broadcaster's own time per delivery (inside the send loop). Run after
// `pnpm build`. Figures are printed, never asserted.
import {
  measureBroadcast,
  rawWsVariant,
  sampleMessage,
  transportVariant,
} from "./broadcast-harness.mjs";

const RUNS = 5;
const bytes = sampleMessage(1024);
const plans = [
  { subscribers: 10, messages: 5_000, round: 500 },
  { subscribers: 200, messages: 500, round: 50 },
];
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (n) => Math.round(n).toLocaleString("en-US");

console.log(
  `broadcast of one ${bytes.length}-byte a2a+ocp message; median of ${RUNS} alternating runs`,
);
for (const plan of plans) {
  const raw = [];
  const ours = [];
  for (let run = 0; run < RUNS; run++) {
    raw.push(await measureBroadcast(rawWsVariant(), { ...plan, bytes }));
    ours.push(await measureBroadcast(transportVariant(), { ...plan, bytes }));
  }
  const rate = (results) => median(results.map((r) => r.deliveriesPerSecond));
  const cost = (results) => median(results.map((r) => r.sendMicrosPerDelivery));
  const [r, o] = [rate(raw), rate(ours)];
  const [rc, oc] = [cost(raw), cost(ours)];
  console.log(
    `${String(plan.subscribers).padStart(3)} subscribers: ` +
      `raw ws ${fmt(r)} deliveries/s (${((r * bytes.length) / 1e6).toFixed(1)} MB/s, ${rc.toFixed(1)} µs/delivery sending), ` +
      `transport-ws ${fmt(o)} deliveries/s (${((o * bytes.length) / 1e6).toFixed(1)} MB/s, ${oc.toFixed(1)} µs/delivery sending); ` +
      `throughput ratio ${(o / r).toFixed(2)}, sending-cost ratio ${(oc / rc).toFixed(2)}`,
  );
}
