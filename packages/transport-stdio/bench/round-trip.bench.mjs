// `pnpm bench` for @ocp/transport-stdio: round trips per second through
// spawnStdioProvider to a real provider served by serveStdio (guard rail on),
// against a raw NDJSON client and child carrying the same query and the same
// reply bytes over the same kind of pipe (JSON.stringify out, JSON.parse in,
// nothing else), arms interleaved over rounds. Goals: 0.8 of raw one at a
// time, 0.7 of raw with 64 in flight, 0.6 of raw with ~20 KB of frames.
import { fileURLToPath } from "node:url";
import { spawnStdioProvider } from "../dist/index.js";
import { benchQuery, benchWireQuery, expectFrames } from "./frames.mjs";
import { compare, ROUND_MS, ROUNDS, report } from "./harness.mjs";
import { rawStdio } from "./raw-client.mjs";

const child = (name) => fileURLToPath(new URL(`children/${name}`, import.meta.url));

const cases = [
  { title: "small frame (~300 B), 1 in flight", size: "small", window: 1, goal: 0.8 },
  { title: "~20 KB of frames, 1 in flight", size: "large", window: 1, goal: 0.6 },
  { title: "small frame (~300 B), 64 in flight", size: "small", window: 64, goal: 0.7 },
];

console.log(
  `@ocp/transport-stdio round trips per second (node ${process.version}; ${ROUNDS} rounds of ${ROUND_MS} ms per arm, arms interleaved; ratio: median of per-round ratios [lowest-highest])`,
);
for (const c of cases) {
  if (process.env.BENCH_CASE !== undefined && !c.title.includes(process.env.BENCH_CASE)) continue;
  const raw = rawStdio(c.size);
  const ours = await spawnStdioProvider({
    id: "bench",
    command: process.execPath,
    args: [child("ocp-provider.mjs"), c.size],
  });
  await expectFrames("raw", c.size, raw.call(benchWireQuery));
  await expectFrames("ours", c.size, ours.query(benchQuery));
  const result = await compare(
    {
      "raw NDJSON (parse/stringify only)": () => raw.call(benchWireQuery),
      "spawnStdioProvider -> serveStdio": () => ours.query(benchQuery),
    },
    c.window,
  );
  report(c.title, result, { "spawnStdioProvider -> serveStdio": [c.goal] });
  raw.close();
  await ours.shutdown();
}
process.exit(0);
