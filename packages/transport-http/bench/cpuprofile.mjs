// Prints the self and inclusive time per function of a `.cpuprofile`
// (written by `node --cpu-prof`), the busiest first, as a share of the
// samples that were not idle. Usage: node bench/cpuprofile.mjs FILE [TOP]
import { readFileSync } from "node:fs";

const [file, top = "40"] = process.argv.slice(2);
if (file === undefined) {
  console.error("usage: node bench/cpuprofile.mjs FILE.cpuprofile [TOP]");
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, "utf8"));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes)
  for (const child of node.children ?? []) parent.set(child, node.id);
const hits = new Map();
for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);

const key = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const where =
    url === ""
      ? ""
      : ` ${url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\/packages\//, "")}:${lineNumber + 1}`;
  return `${functionName || "(anonymous)"}${where}`;
};
const idle = new Set(["(idle)", "(program)"]);
let busy = 0;
const self = new Map();
const inclusive = new Map();
for (const [id, count] of hits) {
  const node = byId.get(id);
  if (idle.has(node.callFrame.functionName)) continue;
  busy += count;
  const k = key(node);
  self.set(k, (self.get(k) ?? 0) + count);
  // Each function once per sample, however deep its recursion.
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const name = key(byId.get(at));
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + count);
  }
}
const pct = (n) => `${((100 * n) / busy).toFixed(1).padStart(5)}%`;
const idleCount = [...hits].reduce(
  (sum, [id, count]) => sum + (idle.has(byId.get(id).callFrame.functionName) ? count : 0),
  0,
);
console.log(`${file}: ${busy} busy samples, ${idleCount} idle or (program)`);
console.log("self:");
for (const [name, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) {
  console.log(`  ${pct(n)}  ${name}`);
}
console.log("inclusive:");
for (const [name, n] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) {
  console.log(`  ${pct(n)}  ${name}`);
}
