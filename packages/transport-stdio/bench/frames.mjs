// The frames every arm of the transport benches carries: the same answer,
// the same bytes, whichever side sends them. `small` is one frame of about
// 300 bytes on the wire; `large` is five frames of about 4 KB (about 20 KB).
// Costs are declared honestly, with the shared counter the host audits with.
import { countTokens } from "@ocp/types/tokens";

const WORDS = (
  "budget audit frame provider consent egress fence token score citation provenance " +
  "the host composes context from several providers under one budget and cites each"
).split(" ");

function text(seed, chars) {
  let out = "";
  for (let i = 0; out.length < chars; i += 1)
    out += `${WORDS[(seed * 7 + i * 13) % WORDS.length]} `;
  return out.slice(0, chars).trimEnd();
}

function frame(i, chars) {
  const content = text(i, chars);
  return {
    id: `bench:${i}`,
    kind: "doc",
    title: `Bench section ${i}`,
    content,
    score: 0.9 - i / 100,
    token_cost: countTokens(content),
    provenance: [],
    relations: [],
    citation_label: `bench §${i}`,
  };
}

/** The query result of `size` (`small` or `large`). */
export function benchResult(size) {
  const frames =
    size === "large" ? Array.from({ length: 5 }, (_, i) => frame(i, 3_900)) : [frame(0, 120)];
  return { frames, truncated: false };
}

/**
 * Checks, before any arm is timed, that it answers with the bench frames: once
 * and outside the rounds, so that no arm pays for a check per call (the raw
 * arms make none).
 */
export async function expectFrames(name, size, answer) {
  const want = benchResult(size).frames.map((frame) => frame.id);
  const got = (await answer).frames?.map((frame) => frame.id);
  if (JSON.stringify(got) !== JSON.stringify(want)) {
    throw new Error(`the ${name} arm answered ${JSON.stringify(got)}, not the bench frames`);
  }
}

/**
 * The same result as the reference writes it on the wire (empty provenance and
 * relations left off): what the raw arms send, so that they carry the bytes
 * the OCP provider sends.
 */
export function benchWireResult(size) {
  const { frames, truncated } = benchResult(size);
  return {
    frames: frames.map(({ provenance: _p, relations: _r, ...rest }) => rest),
    truncated,
  };
}

/** The query every arm sends (the host fills the same defaults). */
export const benchQuery = {
  goal: "bench",
  query_text: "a query",
  kinds: ["doc"],
  anchors: [],
  max_frames: 8,
  max_tokens: 16_000,
};

/** The query as it goes on the wire (an empty `anchors` left off): what the raw arms send. */
export const benchWireQuery = Object.fromEntries(
  Object.entries(benchQuery).filter(([key]) => key !== "anchors"),
);

export const benchInfo = {
  name: "bench",
  version: "1.0.0",
  data_flow: { reads: true, writes: false, egress: false },
};

export const benchCapabilities = {
  query: { kinds: ["doc"], filters: [] },
  upsert: false,
  graph: false,
  subscribe: false,
  correlation: true,
};
