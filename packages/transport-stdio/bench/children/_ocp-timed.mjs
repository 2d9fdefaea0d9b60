import { serveStdio } from "../../dist/index.js";
import { guardAnswer, guardResult } from "@ocp/types/kit";
import { isPlainResult } from "@ocp/types/fast";
import { countTokens } from "@ocp/types/tokens";
import { benchCapabilities, benchInfo, benchResult } from "../frames.mjs";
const result = benchResult(process.argv[2] ?? "small");
let n = 0, t = 0, tp = 0, tc = 0, tp2 = 0;
const opts = { declaredKinds: ["doc"], warn: () => {} };
serveStdio({ id: "bench", info: benchInfo, capabilities: benchCapabilities, async query(q) {
  const a = performance.now(); isPlainResult(result); const b = performance.now(); countTokens(result.frames[0].content); const c = performance.now();
  const o2 = { ...opts, mode: "fix" }; const c2 = performance.now(); guardResult(q, result, o2); const d = performance.now(); tp2 += c2 - c;
  n++; tp += b - a; tc += c - b; t += d - c2;
  if (n % 20000 === 0) process.stderr.write(`n=${n} isPlain ${(tp/n*1000).toFixed(2)}µs countTokens ${(tc/n*1000).toFixed(2)}µs spread ${(tp2/n*1000).toFixed(2)}µs guardResult ${(t/n*1000).toFixed(2)}µs\n`);
  return result; }, async shutdown() {} }, { guard: "off" });
