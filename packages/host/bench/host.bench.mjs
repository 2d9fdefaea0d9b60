// `pnpm bench` for @ocp/host: fan-out to 8 in-process providers, and
// composition of 10,000 candidate frames, each with the ratio to a baseline
// run in the same process (direct Promise.all of the providers; a plain sort
// of the same frames by score).
import { compose, Host } from "../dist/index.js";

const PROVIDERS = 8;
const FANOUT_ROUNDS = 2_000;
const CANDIDATES = 10_000;
const COMPOSE_ROUNDS = 20;

const WORDS =
  "budget audit frame provider consent egress fence token score citation provenance".split(" ");

function text(seed, words) {
  let out = "";
  for (let i = 0; i < words; i++) out += `${WORDS[(seed * 7 + i * 13) % WORDS.length]} `;
  return `${out}(${seed})`;
}

function frame(providerId, i) {
  return {
    id: `${providerId}-${i}`,
    kind: "doc",
    title: `Section ${i} of ${providerId}`,
    content: text(i, 30 + (i % 40)),
    score: ((i * 7919) % 1000) / 1000,
    token_cost: 80,
    provenance: [],
    relations: [],
    citation_label: `${providerId} §${i}`,
  };
}

function provider(id) {
  const frames = Array.from({ length: 8 }, (_, i) => ({ ...frame(id, i), token_cost: 60 }));
  return {
    id,
    info: { name: id, version: "1.0.0", data_flow: { reads: true, writes: false, egress: false } },
    capabilities: {
      query: { kinds: ["doc"], filters: [] },
      upsert: false,
      graph: false,
      subscribe: false,
    },
    async query() {
      return { frames, truncated: false };
    },
    async shutdown() {},
  };
}

async function time(rounds, fn) {
  for (let i = 0; i < Math.min(20, rounds); i++) await fn(); // warm-up
  const start = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) await fn();
  const perRound = Number(process.hrtime.bigint() - start) / 1e6 / rounds;
  return perRound;
}

const query = { goal: "bench", kinds: ["doc"], max_frames: 8, max_tokens: 1_000 };
const providers = Array.from({ length: PROVIDERS }, (_, i) => provider(`p${i}`));
const host = new Host({ warn: () => undefined });
for (const p of providers) host.add(p);

const direct = await time(FANOUT_ROUNDS, () => Promise.all(providers.map((p) => p.query(query))));
const fanout = await time(FANOUT_ROUNDS, () => host.queryAll(query));
const fanoutNoT1 = new Host({ warn: () => undefined, measureCosts: false });
for (const p of providers) fanoutNoT1.add(p);
const fanoutDeclared = await time(FANOUT_ROUNDS, () => fanoutNoT1.queryAll(query));

const candidates = [];
for (let i = 0; i < CANDIDATES; i++)
  candidates.push({ providerId: `p${i % PROVIDERS}`, frame: frame(`p${i % PROVIDERS}`, i) });
// 5% exact duplicates of content from another provider.
for (let i = 0; i < CANDIDATES / 20; i++)
  candidates[i * 20].frame = { ...candidates[i * 20 + 1].frame, id: `dup-${i}` };

let sink = 0;
const sort = await time(COMPOSE_ROUNDS, () => {
  const sorted = [...candidates].sort((a, b) => b.frame.score - a.frame.score);
  sink += sorted.length;
});
const compose8k = await time(COMPOSE_ROUNDS, () => {
  sink += compose({ accepted: candidates }, { maxTokens: 8_000 }).included.length;
});
const compose128k = await time(COMPOSE_ROUNDS, () => {
  sink += compose({ accepted: candidates }, { maxTokens: 128_000, maxFrames: 10_000 }).included
    .length;
});
const sample = compose({ accepted: candidates }, { maxTokens: 8_000 });

const fmt = (ms) => `${ms.toFixed(3)} ms`;
console.log(`@ocp/host bench (node ${process.version})`);
console.log(
  `fan-out to ${PROVIDERS} in-process providers (8 frames each), ${FANOUT_ROUNDS} rounds:`,
);
console.log(`  direct Promise.all (baseline)      ${fmt(direct)} per round`);
console.log(
  `  host.queryAll, audit + T1 measure  ${fmt(fanout)} per round  ratio ${(fanout / direct).toFixed(1)}x`,
);
console.log(
  `  host.queryAll, declared costs only ${fmt(fanoutDeclared)} per round  ratio ${(fanoutDeclared / direct).toFixed(1)}x`,
);
console.log(`compose ${CANDIDATES} candidate frames, ${COMPOSE_ROUNDS} rounds:`);
console.log(`  plain sort by score (baseline)     ${fmt(sort)}`);
console.log(
  `  compose, maxTokens 8000            ${fmt(compose8k)}  ratio ${(compose8k / sort).toFixed(1)}x  (${sample.included.length} included, ${sample.tokens} tokens)`,
);
console.log(
  `  compose, maxTokens 128000          ${fmt(compose128k)}  ratio ${(compose128k / sort).toFixed(1)}x`,
);
if (sink < 0) console.log(sink);
await host.shutdown();
await fanoutNoT1.shutdown();
