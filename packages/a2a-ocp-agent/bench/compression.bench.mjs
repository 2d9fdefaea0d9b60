// pnpm bench: §12.2 compression on a realistic knowledge stream — nodes built
// from this repository's own documents and sources, sent in stream chunks of
// DEFAULT_STREAM_BATCH nodes as an agent does. Each arm runs the whole path of
// every chunk: the agent's compression decision (OutboundCompression), sign,
// serialise (the bytes on the wire), then the receiver's inbound pipeline
// (parse, verify, inflate). Arms: plain, gzip, brotli; interleaved over
// rounds; medians and spread of CPU time and wall time are printed, with the
// bytes on the wire. Figures depend on the machine; compare the ratios.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createMessage, generateIdentity, signObject } from "@ocp/a2a-ocp-messaging";
import { createNodeInboundPipeline } from "@ocp/a2a-ocp-messaging/node";
import { OutboundCompression } from "../dist/compression.js";
import { DEFAULT_STREAM_BATCH } from "../dist/internal.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const MAX_NODES = Number(process.env.BENCH_COMPRESSION_NODES ?? 1000);
const root = fileURLToPath(new URL("../../../", import.meta.url));
const alice = generateIdentity("a2a://bench-alice");
const BOB = "a2a://bench-bob";

/** Markdown and TypeScript files under `dir` (no node_modules, dist or dot folders). */
function* sources(dir) {
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith(".") || name === "node_modules" || name === "dist") continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (/\.(md|ts)$/.test(name) && !name.endsWith(".d.ts")) yield path;
  }
}

/** One node per section of a document, or per 3,000 characters of a source file. */
function knowledgeNodes() {
  const nodes = [];
  for (const path of [...sources(join(root, "docs")), ...sources(join(root, "packages"))]) {
    const text = readFileSync(path, "utf8");
    const rel = path.slice(root.length);
    const parts = rel.endsWith(".md")
      ? text.split(/\n(?=#{1,3} )/)
      : (text.match(/[\s\S]{1,3000}/g) ?? []);
    parts.forEach((part, i) => {
      if (nodes.length >= MAX_NODES || part.trim().length < 80) return;
      nodes.push({
        id: `${rel}#${i}`,
        type: rel.endsWith(".md") ? "doc.section" : "code.excerpt",
        title:
          part
            .split("\n")
            .find((line) => line.trim() !== "")
            ?.slice(0, 120) ?? rel,
        description: part,
        data: { path: rel, part: i },
        confidence: 0.9,
        timestamp: "2026-01-01T00:00:00Z",
        createdBy: alice.id,
        tags: [rel.split("/")[1] ?? "repo", rel.endsWith(".md") ? "docs" : "source"],
        metadata: { domain: rel.split("/")[0] },
      });
    });
  }
  return nodes;
}

const nodes = knowledgeNodes();
const chunks = [];
for (let i = 0; i < nodes.length; i += DEFAULT_STREAM_BATCH) {
  chunks.push(nodes.slice(i, i + DEFAULT_STREAM_BATCH));
}

/** A link whose directory says bob reads gzip and brotli. */
const link = {
  cards: async () => [{ id: BOB, capabilities: { ocp: { compression: ["gzip", "brotli"] } } }],
};
const compressors = {
  plain: new OutboundCompression(link, { enabled: false }),
  gzip: new OutboundCompression(link, { algorithm: "gzip" }),
  brotli: new OutboundCompression(link, { algorithm: "brotli" }),
};
const lookupKey = (id) => (id === alice.id ? alice.publicKey : undefined);

/** Sends every chunk through the arm's path; returns bytes on the wire. */
async function run(compression) {
  const receiver = createNodeInboundPipeline({ lookupKey, maxMessageBytes: 16 * 1024 * 1024 });
  let bytes = 0;
  let sequenceNumber = 0;
  for (const chunk of chunks) {
    const message = createMessage({
      type: "ocp.knowledge.stream",
      from: alice.id,
      to: BOB,
      payload: {
        streamId: "bench",
        nodes: chunk,
        isIncremental: true,
        sequenceNumber: sequenceNumber++,
      },
    });
    const wire = JSON.stringify(signObject(await compression.prepare(message), alice.secretKey));
    bytes += Buffer.byteLength(wire);
    const accepted = await receiver.accept(wire);
    if (!accepted.ok) throw new Error(`refused: ${accepted.error.code} ${accepted.error.message}`);
    if (accepted.value.message.payload.nodes.length !== chunk.length) throw new Error("lost nodes");
  }
  return bytes;
}

const samples = Object.fromEntries(
  Object.keys(compressors).map((n) => [n, { cpu: [], wall: [], bytes: 0 }]),
);
for (const compression of Object.values(compressors)) await run(compression); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, compression] of Object.entries(compressors)) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    samples[name].bytes = await run(compression);
    samples[name].wall.push(performance.now() - start);
    const used = process.cpuUsage(cpu);
    samples[name].cpu.push((used.user + used.system) / 1000);
  }
}

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
const ms = (n) => `${n.toFixed(0)} ms`;
const plainBytes = samples.plain.bytes;
const plainCpu = median(samples.plain.cpu);
const payloadBytes = Buffer.byteLength(JSON.stringify(nodes));
console.log(
  `agent compression bench: ${nodes.length} nodes from the repository (${(payloadBytes / 1e6).toFixed(2)} MB of JSON) in ${chunks.length} streams of ${DEFAULT_STREAM_BATCH}, ${ROUNDS} rounds, load ${loadavg()[0].toFixed(1)}`,
);
for (const [name, s] of Object.entries(samples)) {
  const cpu = sorted(s.cpu);
  const wall = sorted(s.wall);
  console.log(
    `  ${name.padEnd(7)} wire ${(s.bytes / 1e6).toFixed(2).padStart(6)} MB (${((100 * s.bytes) / plainBytes).toFixed(0).padStart(3)}%)` +
      `  cpu median ${ms(median(s.cpu)).padStart(8)} (min ${ms(cpu[0])}, max ${ms(cpu.at(-1))}, ${(median(s.cpu) / plainCpu).toFixed(2)}x plain)` +
      `  wall median ${ms(median(s.wall))} (min ${ms(wall[0])}, max ${ms(wall.at(-1))})`,
  );
}
