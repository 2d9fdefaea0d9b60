#!/usr/bin/env node
// Decode + validate throughput of a `frames` envelope (10 frames of 2 KB each),
// beside JSON.parse of the same line in the same run. Run after `pnpm build`.
import { decodeLine, encodeLine, validateResult } from "../dist/index.js";

const ROUNDS = 5;
const ROUND_MS = 400;

const content = "lorem ipsum dolor sit amet, ".repeat(74).slice(0, 2048);
const line = encodeLine({
  type: "frames",
  result: {
    truncated: false,
    frames: Array.from({ length: 10 }, (_, i) => ({
      id: `bench:${i}`,
      kind: "doc",
      title: `Section ${i}`,
      content,
      uri: `file:///repo/docs/guide-${i}.md`,
      score: 1 - i / 10,
      token_cost: 512,
      provenance: [
        {
          type: "file",
          uri: `file:///repo/docs/guide-${i}.md`,
          range: "L1-40",
          digest: "sha256:00",
        },
      ],
      citation_label: `guide-${i}.md L1-40`,
    })),
  },
});
const query = { max_tokens: 8192, max_frames: 10, kinds: ["doc"] };

function measure(fn) {
  let ops = 0;
  const end = performance.now() + ROUND_MS;
  while (performance.now() < end) {
    for (let i = 0; i < 50; i++) fn();
    ops += 50;
  }
  return (ops * 1000) / ROUND_MS;
}

const baseline = [];
const ours = [];
let sink = 0;
for (let round = 0; round < ROUNDS; round++) {
  baseline.push(
    measure(() => {
      sink += JSON.parse(line).result.frames.length;
    }),
  );
  ours.push(
    measure(() => {
      const decoded = decodeLine(line);
      if (!decoded.ok || decoded.value.type !== "frames")
        throw new Error("bench line failed to decode");
      sink += validateResult(decoded.value.result, query).length;
    }),
  );
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = Buffer.byteLength(line) / 1e6;
const b = median(baseline);
const o = median(ours);
console.log(
  `frames envelope: 10 frames × 2 KB, ${Buffer.byteLength(line)} bytes per line (sink ${sink > 0 ? "ok" : "?"})`,
);
console.log(
  `  JSON.parse                : ${b.toFixed(0).padStart(8)} lines/s  ${(b * mb).toFixed(1).padStart(7)} MB/s`,
);
console.log(
  `  decodeLine + validateResult: ${o.toFixed(0).padStart(7)} lines/s  ${(o * mb).toFixed(1).padStart(7)} MB/s`,
);
console.log(`  ratio to JSON.parse       : ${(o / b).toFixed(2)}`);
