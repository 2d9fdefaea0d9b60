// What the benches of this package share: the `frames` answer they decode
// (10 frames of 2 KB each), a timed measure and the median of rounds.

const content = "lorem ipsum dolor sit amet, ".repeat(74).slice(0, 2048);

/** Ten `doc` frames of 2 KB of content each, costed 512 tokens, one file provenance each. */
export const benchFrames = () =>
  Array.from({ length: 10 }, (_, i) => ({
    id: `bench:${i}`,
    kind: "doc",
    title: `Section ${i}`,
    content,
    uri: `file:///repo/docs/guide-${i}.md`,
    score: 1 - i / 10,
    token_cost: 512,
    provenance: [
      { type: "file", uri: `file:///repo/docs/guide-${i}.md`, range: "L1-40", digest: "sha256:00" },
    ],
    citation_label: `guide-${i}.md L1-40`,
    relations: [],
  }));

/** Calls of `fn` per second over one round of `roundMs`, called in batches of `batch`. */
export function measure(fn, roundMs, batch) {
  let ops = 0;
  const end = performance.now() + roundMs;
  while (performance.now() < end) {
    for (let i = 0; i < batch; i++) fn();
    ops += batch;
  }
  return (ops * 1000) / roundMs;
}

/** The median of `xs` (the upper one of an even count). */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
