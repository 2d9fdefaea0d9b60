// pnpm bench: Ed25519 sign/verify (noble, node:crypto's OpenSSL, and the node
// default: libsodium where sodium-native loads) and the inbound pipeline,
// each beside JSON.parse of the same messages, measured in the same run; then
// OpenSSL and the native default verifying side by side over interleaved rounds.
// Figures depend on the machine; the ratios are what to compare across runs.
import { loadavg } from "node:os";
import { createMessage, InboundPipeline, signObject, verifyObject } from "../dist/index.js";
import { nobleEd25519 } from "../dist/internal.js";
import {
  createNodeInboundPipeline,
  nativeEd25519,
  nativeEd25519Library,
  opensslEd25519,
} from "../dist/node/index.js";
import { ALICE, alice, lookupKey, mixedMessage } from "./messages.mjs";

const COUNT = Number(process.env.BENCH_MESSAGES ?? 3000);

const vote = () =>
  createMessage({
    type: "ocp.consensus.vote",
    from: ALICE,
    to: "broadcast",
    payload: { proposalId: "prop-1", vote: "approve", votedBy: ALICE, reasoning: "faster" },
  });
const message = (i) => mixedMessage(i, vote);

const unsigned = Array.from({ length: COUNT }, (_, i) => message(i));
const signed = unsigned.map((m) => signObject(m, alice.secretKey, nativeEd25519));
const texts = signed.map((m) => JSON.stringify(m));
const parsed = texts.map((t) => JSON.parse(t));
const meanBytes = Math.round(texts.reduce((n, t) => n + Buffer.byteLength(t), 0) / COUNT);

const WARM_UP = Math.min(COUNT, 300);

// fn(count) processes the first `count` messages; a short pass warms the JIT first.
function rate(fn) {
  fn(WARM_UP);
  const start = process.hrtime.bigint();
  fn(COUNT);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return COUNT / seconds;
}

async function rateAsync(fn) {
  await fn(WARM_UP);
  const start = process.hrtime.bigint();
  await fn(COUNT);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return COUNT / seconds;
}

let sink = 0;
const baseline = rate((n) => {
  for (let i = 0; i < n; i++) sink += JSON.parse(texts[i]) === null ? 0 : 1;
});

const results = [];
const record = (name, perSecond) => results.push({ name, perSecond });

for (const backend of [nobleEd25519, opensslEd25519, nativeEd25519]) {
  record(
    `sign (${backend.name})`,
    rate((n) => {
      for (let i = 0; i < n; i++) {
        sink += signObject(unsigned[i], alice.secretKey, backend).signature.length;
      }
    }),
  );
  record(
    `verify (${backend.name})`,
    rate((n) => {
      for (let i = 0; i < n; i++) {
        if (!verifyObject(parsed[i], alice.publicKey, backend)) throw new Error("verify failed");
      }
    }),
  );
}

for (const [name, make] of [
  ["inbound pipeline (native)", () => createNodeInboundPipeline({ lookupKey })],
  ["inbound pipeline (noble)", () => new InboundPipeline({ lookupKey })],
]) {
  // A fresh pipeline per pass: the same ids twice would be replays.
  record(
    name,
    await rateAsync(async (n) => {
      const pipeline = make();
      for (let i = 0; i < n; i++) {
        const result = await pipeline.accept(texts[i]);
        if (!result.ok) throw result.error;
      }
    }),
  );
}

console.log(
  `a2a-ocp-messaging bench: ${COUNT} messages, mean ${meanBytes} bytes, node ${process.version}`,
);
console.log(`${"JSON.parse (baseline)".padEnd(28)} ${baseline.toFixed(0).padStart(10)} msg/s`);
for (const { name, perSecond } of results) {
  const ratio = baseline / perSecond;
  console.log(
    `${name.padEnd(28)} ${perSecond.toFixed(0).padStart(10)} msg/s   ${ratio.toFixed(1).padStart(7)}x slower than JSON.parse`,
  );
}
const nobleVerify = results.find((r) => r.name === "verify (noble)").perSecond;
const nativeVerify = results.find((r) => r.name === "verify (native)").perSecond;
console.log(`native verify is ${(nativeVerify / nobleVerify).toFixed(1)}x noble verify`);

// The two native libraries side by side: verification of the same messages,
// the arms interleaved over ROUNDS (order swapped every round), medians and
// the spread of the per-round ratio.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const verifyWith = (backend) => (n) => {
  for (let i = 0; i < n; i++) {
    if (!verifyObject(parsed[i], alice.publicKey, backend)) throw new Error("verify failed");
  }
};
const arms = { openssl: verifyWith(opensslEd25519), native: verifyWith(nativeEd25519) };
const perRound = { openssl: [], native: [] };
const ratios = [];
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? ["openssl", "native"] : ["native", "openssl"];
  for (const arm of order) perRound[arm].push(rate(arms[arm]));
  ratios.push(perRound.native[round] / perRound.openssl[round]);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `verify, ${ROUNDS} interleaved rounds: openssl ${median(perRound.openssl).toFixed(0)} msg/s, native (${nativeEd25519Library()}) ${median(perRound.native).toFixed(0)} msg/s; native / openssl ${median(ratios).toFixed(2)} (per round ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
);
console.log(
  `load average at the end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")} (noisy when high)`,
);
if (sink === -1) console.log("");
