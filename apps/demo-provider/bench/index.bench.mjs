#!/usr/bin/env node
// Index throughput and query latency of the demo provider over every Markdown
// file under the repository's node_modules (a real corpus on any machine after
// install), beside a plain substring scan of the same corpus in the same run.
// Run after `pnpm build`.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Corpus, DemoProvider } from "../dist/index.js";

const root = fileURLToPath(new URL("../../../node_modules", import.meta.url));
const MAX_MARKDOWN_FILES = 5000;

function markdownFiles(dir, out, seen) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (out.length >= MAX_MARKDOWN_FILES) return;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) markdownFiles(path, out, seen);
    else if (entry.isFile() && /\.md$/i.test(entry.name)) {
      const { ino, dev } = statSync(path);
      const key = `${dev}:${ino}`;
      if (!seen.has(key)) {
        seen.add(key);
        out.push(path);
      }
    }
  }
}

const files = [];
markdownFiles(root, files, new Set());
if (files.length === 0) {
  console.error("no Markdown files under node_modules: run `pnpm install` first");
  process.exit(1);
}

const QUERIES = [
  "how do I configure a timeout",
  "parse command line arguments",
  "websocket close code",
  "JSON schema validation errors",
  "install with npm",
  "TypeScript type definitions",
  "license MIT permission",
  "stream backpressure",
  "benchmark results",
  "breaking changes migration guide",
  "environment variables",
  "error handling promise rejection",
  "unicode normalization",
  "cache invalidation",
  "source map support",
  "browser compatibility",
  "retry with exponential backoff",
  "tokenizer encoding",
  "test runner configuration",
  "changelog release notes",
];

const t0 = performance.now();
const corpus = await Corpus.build(files);
const indexMs = performance.now() - t0;
const provider = new DemoProvider(corpus);

const lowered = corpus.entries.map((entry) => entry.content.toLowerCase());
function substringScan(text, maxFrames) {
  const terms = text
    .toLowerCase()
    .split(/\s+/)
    .filter((t) => t.length > 2);
  const scored = [];
  for (let i = 0; i < lowered.length; i++) {
    let hits = 0;
    for (const term of terms) if (lowered[i].includes(term)) hits++;
    if (hits > 0) scored.push([hits, i]);
  }
  scored.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  return scored.slice(0, maxFrames);
}

const ROUNDS = 10;
/** A budget most best sections do not fit whole: the provider serves their best-fitting parts. */
const TIGHT = 600;
const ours = [];
const tight = [];
const scan = [];
let sink = 0;
let parts = 0;
let tightFrames = 0;
const ask = (goal, max_tokens) =>
  provider.query({ goal, kinds: [], anchors: [], max_frames: 8, max_tokens }).catch((error) => {
    if (error.code !== "budget_unsatisfiable") throw error;
    return { frames: [] };
  });
// Arms interleaved per query, their order alternating by round.
for (let round = 0; round < ROUNDS; round++) {
  for (const goal of QUERIES) {
    const arms = [
      async () => {
        const start = performance.now();
        const result = await ask(goal, 4000);
        ours.push(performance.now() - start);
        sink += result.frames.length;
      },
      async () => {
        const start = performance.now();
        const result = await ask(goal, TIGHT);
        tight.push(performance.now() - start);
        tightFrames += result.frames.length;
        parts += result.frames.filter((f) => / \(L\d+-\d+\)$/.test(f.title)).length;
      },
      async () => {
        const start = performance.now();
        sink += substringScan(goal, 8).length;
        scan.push(performance.now() - start);
      },
    ];
    if (round % 2 === 1) arms.reverse();
    for (const arm of arms) await arm();
  }
}
const pct = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const spread = (xs) => `p10-p90 ${pct(xs, 10).toFixed(2)}-${pct(xs, 90).toFixed(2)} ms`;
const mb = corpus.bytes / 1e6;
console.log(
  `corpus: ${corpus.files} Markdown files under node_modules, ${mb.toFixed(1)} MB, ${corpus.entries.length} frames (sink ${sink})`,
);
console.log(
  `index : ${indexMs.toFixed(0)} ms — ${(corpus.files / (indexMs / 1000)).toFixed(0)} files/s, ${(mb / (indexMs / 1000)).toFixed(2)} MB/s (read, chunk, BPE count, sha256, BM25 index)`,
);
console.log(
  `query (BM25, budgeted frames) : p50 ${pct(ours, 50).toFixed(2)} ms  p99 ${pct(ours, 99).toFixed(2)} ms  ${spread(ours)}`,
);
console.log(
  `query, max_tokens ${TIGHT} (fits parts): p50 ${pct(tight, 50).toFixed(2)} ms  p99 ${pct(tight, 99).toFixed(2)} ms  ${spread(tight)}  (${tightFrames} frames, ${parts} of them parts)`,
);
console.log(`ratio p50 tight / 4000 budget  : ${(pct(tight, 50) / pct(ours, 50)).toFixed(2)}`);
console.log(
  `substring scan, same corpus   : p50 ${pct(scan, 50).toFixed(2)} ms  p99 ${pct(scan, 99).toFixed(2)} ms  ${spread(scan)}`,
);
console.log(`ratio p50 BM25 / scan         : ${(pct(ours, 50) / pct(scan, 50)).toFixed(2)}`);
