// pnpm bench: what the message schema check (decodeMessage) costs per message
// beside JSON.parse of the same text (issue 18), over the shapes the hub bench
// and a hub see most: a ~900-byte durable direct knowledge stream, a knowledge
// update broadcast, a collective query, a collective response carrying two
// nodes and an awareness beacon, all signed. Three arms per shape:
// JSON.parse of the text (the baseline), the schema pass alone as
// decodeMessage ran it before the fast path (schemaFor(v).safeParse(v) and the
// version check), and decodeMessage as it is now, both over the parsed values.
// Arms are interleaved over rounds; medians and spread are printed.
// BENCH_SHAPE=stream|update|query|response|beacon limits it to one shape.
import { loadavg } from "node:os";
import {
  createMessage,
  decodeMessage,
  generateIdentity,
  PROTOCOL_VERSION,
  signObject,
  versionsCompatible,
} from "../dist/index.js";
import { schemaFor } from "../dist/internal.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const PER_ROUND = Number(process.env.BENCH_MESSAGES ?? 1000);
const ALICE = "a2a://bench-alice";
const BOB = "a2a://bench-bob";
const alice = generateIdentity(ALICE);
const pad = "x".repeat(300);

const shapes = {
  // The cluster bench's message (packages/a2a-ocp-hub/bench/cluster-wire.mjs).
  stream: (i) =>
    createMessage({
      type: "ocp.knowledge.stream",
      from: ALICE,
      to: BOB,
      ttl: 300,
      payload: {
        streamId: "bench",
        nodes: [
          {
            id: `n-${i}`,
            type: "code.solution",
            title: "WebSocket memory leak fix",
            data: { code: "ws.on('close', () => { connections.delete(id); })", pad },
            confidence: 0.9,
            timestamp: new Date().toISOString(),
            createdBy: ALICE,
            tags: ["websocket"],
          },
        ],
        isIncremental: true,
        sequenceNumber: i,
      },
    }),
  update: (i) =>
    createMessage({
      type: "ocp.knowledge.update",
      from: ALICE,
      to: "broadcast",
      payload: {
        updates: [
          {
            nodeId: `n-${i}`,
            changes: { confidence: 0.95, tags: ["websocket", "verified"], visibility: "team" },
            changeType: "modified",
          },
        ],
        deletions: [`n-${i - 1}`],
        newEdges: [
          { id: `e-${i}`, source: `n-${i}`, target: "n-0", relationship: "fixes", weight: 0.8 },
        ],
        deletedEdges: [],
      },
    }),
  query: (i) =>
    createMessage({
      type: "ocp.collective.query",
      from: ALICE,
      to: [BOB, "a2a://bench-carol", "a2a://bench-dave"],
      priority: "high",
      payload: {
        queryId: `q-${i}`,
        query: "How do we stop the WebSocket memory leak on reconnect?",
        structuredQuery: {
          intent: "troubleshoot",
          domains: ["backend", "websocket"],
          keywords: ["memory", "leak", "reconnect"],
        },
        timeout: 5000,
        minResponses: 1,
        maxResponses: 3,
      },
    }),
  response: (i) =>
    createMessage({
      type: "ocp.collective.response",
      from: BOB,
      to: ALICE,
      correlation_id: `q-${i}`,
      payload: {
        queryId: `q-${i}`,
        findings: [0, 1].map((k) => ({
          node: {
            id: `n-${i + k}`,
            type: "code.solution",
            title: "WebSocket memory leak fix",
            data: { code: "ws.on('close', () => { connections.delete(id); })" },
            confidence: 0.9,
            timestamp: "2026-10-13T10:25:00Z",
            createdBy: BOB,
            tags: ["websocket", "memory-leak"],
          },
          relevance: 0.9 - k / 10,
        })),
        confidence: 0.8,
        processingTime: 12,
      },
    }),
  beacon: (i) =>
    createMessage({
      type: "ocp.awareness.beacon",
      from: ALICE,
      to: "broadcast",
      payload: { status: "working", availability: "busy", currentContext: { task: `task ${i}` } },
    }),
};

const chosen = process.env.BENCH_SHAPE ? [process.env.BENCH_SHAPE] : Object.keys(shapes);
const textsOf = (shape) =>
  Array.from({ length: PER_ROUND }, (_, i) =>
    JSON.stringify(signObject(shapes[shape](i + 1), alice.secretKey)),
  );
const texts = Object.fromEntries(chosen.map((shape) => [shape, textsOf(shape)]));
const values = Object.fromEntries(
  chosen.map((shape) => [shape, texts[shape].map((t) => JSON.parse(t))]),
);

let sink = 0;
const arms = {};
for (const shape of chosen) {
  arms[`${shape}: JSON.parse (baseline)`] = () => {
    for (const t of texts[shape]) sink += JSON.parse(t) === null ? 0 : 1;
  };
  arms[`${shape}: schema pass (before)`] = () => {
    for (const v of values[shape]) {
      const r = schemaFor(v).safeParse(v);
      if (!r.success || !versionsCompatible(r.data.version, PROTOCOL_VERSION)) throw r.error;
      sink += r.data.id.length;
    }
  };
  arms[`${shape}: decodeMessage (now)`] = () => {
    for (const v of values[shape]) {
      const r = decodeMessage(v);
      if (!r.ok) throw r.error;
      sink += r.value.id.length;
    }
  };
}

const samples = Object.fromEntries(Object.keys(arms).map((name) => [name, []]));
for (let i = 0; i < 3; i++) for (const arm of Object.values(arms)) arm(); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, arm] of Object.entries(arms)) {
    const start = process.hrtime.bigint();
    arm();
    samples[name].push(Number(process.hrtime.bigint() - start) / 1e3 / PER_ROUND); // µs per message
  }
}
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
const us = (x) => `${x.toFixed(2)} µs`;
console.log(
  `a2a-ocp-messaging decode: ${ROUNDS} rounds x ${PER_ROUND} messages per shape, load ${loadavg()[0].toFixed(1)}`,
);
for (const [name, xs] of Object.entries(samples)) {
  const s = sorted(xs);
  console.log(
    `  ${name.padEnd(40)} median ${us(median(xs)).padStart(10)}/msg  (min ${us(s[0])}, max ${us(s.at(-1))})`,
  );
}
for (const shape of chosen) {
  const bytes = Math.round(texts[shape].reduce((n, t) => n + Buffer.byteLength(t), 0) / PER_ROUND);
  const parse = median(samples[`${shape}: JSON.parse (baseline)`]);
  const before = median(samples[`${shape}: schema pass (before)`]);
  const now = median(samples[`${shape}: decodeMessage (now)`]);
  console.log(
    `  ${shape} (${bytes} bytes): before ${us(before)} = ${(before / parse).toFixed(2)}x JSON.parse; now ${us(now)} = ${(now / parse).toFixed(2)}x JSON.parse; ${(before / now).toFixed(1)}x cheaper`,
  );
}
if (sink === -1) console.log("");
