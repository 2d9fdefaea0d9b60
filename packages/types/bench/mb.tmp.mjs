import { isPlainResult } from "/work/wt-fast/packages/types/dist/fast/index.js";
import { encodeLine } from "/work/wt-fast/packages/types/dist/index.js";
const content = "x".repeat(2048);
const frames = Array.from({ length: 10 }, (_, i) => ({ id: `b:${i}`, kind: "doc", title: "T", content, uri: "file:///a", score: 0.5, token_cost: 512,
  provenance: [{ type: "file", uri: "file:///a", range: "L1", digest: "sha256:00" }], citation_label: "g" }));
const line = JSON.stringify({ frames, truncated: false });
const parsed = Array.from({ length: 2000 }, () => JSON.parse(line));
let t = performance.now(); let n = 0;
for (const p of parsed) if (isPlainResult(p, { own: true })) n++;
const first = performance.now() - t;
const small = parsed.slice(0, 100);
const times = [];
for (let r = 0; r < 15; r++) {
  t = performance.now();
  for (let k = 0; k < 200; k++) for (const p of small) if (isPlainResult(p, { own: true })) n++;
  times.push((performance.now() - t) / 20000 * 1000);
}
times.sort((a, b) => a - b);
console.log(n, times[7].toFixed(3), "µs per result check (median)");
