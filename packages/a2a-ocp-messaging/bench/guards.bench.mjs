// pnpm bench: what the two guards of issue 15 cost on every inbound message —
// the I-JSON duplicate-name check (parseJson = JSON.parse + the colon count of
// @ocp/types/fast, the character scan only for what it refuses) and
// the visibility walk over the whole payload (accessControlledNodes) — beside
// JSON.parse of the same text and the whole inbound pipeline (parse, schema,
// freshness, replay, signature with native Ed25519) of the same messages.
// Arms are interleaved over rounds; medians and spread are printed.
import { loadavg } from "node:os";
import { createMessage, signObject } from "../dist/index.js";
import { accessControlledNodes } from "../dist/internal.js";
import { parseJson } from "../dist/json.js"; // what MessageStages.parse runs on every frame
import { createNodeInboundPipeline } from "../dist/node/index.js";
import { ALICE, alice, benchNode, lookupKey, mixedMessage } from "./messages.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const PER_ROUND = Number(process.env.BENCH_MESSAGES ?? 1000);

const node = benchNode;

// Three shapes a hub sees: a stream of nodes, a collective response whose findings carry nodes
// (one private), and a beacon with no node at all.
const collectiveResponse = (i) =>
  createMessage({
    type: "ocp.collective.response",
    from: ALICE,
    to: "a2a://bench-bob",
    payload: {
      queryId: `q-${i}`,
      processingTime: 12,
      findings: [
        {
          node: node(i, { visibility: "private", sharedWith: ["a2a://bench-bob"] }),
          relevance: 0.9,
        },
        { node: node(i + 1), relevance: 0.7 },
      ],
      confidence: 0.8,
    },
  });
const message = (i) => mixedMessage(i, collectiveResponse);

const texts = Array.from({ length: PER_ROUND }, (_, i) =>
  JSON.stringify(signObject(message(i), alice.secretKey)),
);
const values = texts.map((t) => JSON.parse(t));
const meanBytes = Math.round(texts.reduce((n, t) => n + Buffer.byteLength(t), 0) / PER_ROUND);

let sink = 0;
const arms = {
  "JSON.parse (baseline)": () => {
    for (const t of texts) sink += JSON.parse(t) === null ? 0 : 1;
  },
  "parseJson (JSON.parse + I-JSON check)": () => {
    for (const t of texts) {
      const r = parseJson(t);
      if (!r.ok) throw r.error;
    }
  },
  "visibility walk (accessControlledNodes)": () => {
    for (const v of values) sink += accessControlledNodes(v.type, v.from, v.payload).length;
  },
  "inbound pipeline (native)": async () => {
    const pipeline = createNodeInboundPipeline({ lookupKey }); // fresh: the same ids would be replays
    for (const t of texts) {
      const r = await pipeline.accept(t);
      if (!r.ok) throw r.error;
    }
  },
};

const samples = Object.fromEntries(Object.keys(arms).map((name) => [name, []]));
for (const arm of Object.values(arms)) await arm(); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, arm] of Object.entries(arms)) {
    const start = process.hrtime.bigint();
    await arm();
    samples[name].push(Number(process.hrtime.bigint() - start) / 1e3 / PER_ROUND); // µs per message
  }
}
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
const us = (x) => `${x.toFixed(2)} µs`;
console.log(
  `a2a-ocp-messaging guards: ${ROUNDS} rounds x ${PER_ROUND} messages, mean ${meanBytes} bytes, load ${loadavg()[0].toFixed(1)}`,
);
for (const [name, xs] of Object.entries(samples)) {
  const s = sorted(xs);
  console.log(
    `  ${name.padEnd(42)} median ${us(median(xs)).padStart(10)}/msg  (min ${us(s[0])}, max ${us(s.at(-1))})`,
  );
}
const parse = median(samples["JSON.parse (baseline)"]);
const scan = median(samples["parseJson (JSON.parse + I-JSON check)"]) - parse;
const walk = median(samples["visibility walk (accessControlledNodes)"]);
const pipeline = median(samples["inbound pipeline (native)"]);
console.log(
  `  I-JSON check adds ${us(scan)}/msg: ${(scan / parse).toFixed(2)}x JSON.parse, ${((100 * scan) / pipeline).toFixed(1)}% of the inbound pipeline`,
);
console.log(
  `  visibility walk costs ${us(walk)}/msg: ${((100 * walk) / pipeline).toFixed(1)}% of the inbound pipeline`,
);
if (sink === -1) console.log("");
