#!/usr/bin/env node
// The fast path of `@ocp/types/fast` on the hot messages, beside JSON.parse of the
// same line in the same run: decodeLineFast of a `frames` line (10 frames of 2 KB),
// encodeFramesLine of its result (and encodeLine, the schema path, of the same
// envelope), and sealQuery + encodeQueryJson of a query.
// Medians of interleaved rounds. Run after `pnpm build`.
import { loadavg } from "node:os";
import {
  decodeLineFast,
  encodeFramesLine,
  encodeQueryJson,
  sealQuery,
} from "../dist/fast/index.js";
import { encodeLine } from "../dist/index.js";
import { benchFrames, measure as measureRound, median } from "./kit.mjs";

const ROUNDS = 7;
const ROUND_MS = 300;

const frames = benchFrames();
const result = { frames, truncated: false };
const line = encodeLine({ type: "frames", id: "q-1", result });
const query = {
  goal: "explain the retry policy",
  query_text: "retry policy backoff",
  kinds: ["doc", "snippet"],
  anchors: ["file:///repo/src/retry.ts"],
  max_frames: 10,
  max_tokens: 8192,
};

const measure = (fn) => measureRound(fn, ROUND_MS, 20);

let sink = 0;
const runs = { parse: [], decode: [], encode: [], schemaEncode: [], query: [] };
for (let round = 0; round < ROUNDS; round++) {
  runs.parse.push(measure(() => (sink += JSON.parse(line).result.frames.length)));
  runs.decode.push(
    measure(() => {
      const decoded = decodeLineFast(line);
      if (!decoded.ok) throw new Error("bench line failed to decode");
      sink += 1;
    }),
  );
  runs.encode.push(measure(() => (sink += encodeFramesLine("q-1", result).length)));
  runs.schemaEncode.push(
    measure(() => (sink += encodeLine({ type: "frames", id: "q-1", result }).length)),
  );
  runs.query.push(measure(() => (sink += encodeQueryJson(sealQuery(query)).length)));
}
const row = (name, ops) => console.log(`  ${name.padEnd(34)}: ${ops.toFixed(0).padStart(8)} /s`);
console.log(
  `fast path (${Buffer.byteLength(line)}-byte frames line; load ${loadavg()[0].toFixed(1)}; sink ${sink > 0 ? "ok" : "?"})`,
);
row("JSON.parse of the line", median(runs.parse));
row("decodeLineFast of the line", median(runs.decode));
row("encodeFramesLine of its result", median(runs.encode));
row("encodeLine of the same envelope", median(runs.schemaEncode));
row("sealQuery + encodeQueryJson", median(runs.query));
console.log(
  `  decode ratio to JSON.parse        : ${(median(runs.decode) / median(runs.parse)).toFixed(2)}`,
);
