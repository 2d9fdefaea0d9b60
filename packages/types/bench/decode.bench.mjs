#!/usr/bin/env node
// Decode + validate throughput of a `frames` envelope (10 frames of 2 KB each),
// beside JSON.parse of the same line in the same run. Run after `pnpm build`.
import { decodeLine, encodeLine, validateResult } from "../dist/index.js";
import { benchFrames, measure as measureRound, median } from "./kit.mjs";

const ROUNDS = 5;
const ROUND_MS = 400;

const line = encodeLine({ type: "frames", result: { truncated: false, frames: benchFrames() } });
const query = { max_tokens: 8192, max_frames: 10, kinds: ["doc"] };

const measure = (fn) => measureRound(fn, ROUND_MS, 50);

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
