// The raw baseline's child: NDJSON in, JSON.parse each line, answer with
// JSON.stringify of the same reply envelope the OCP provider sends (same
// frames, same id echo), nothing else. Usage: node raw-provider.mjs small|large
import { benchWireResult } from "../frames.mjs";

const result = benchWireResult(process.argv[2] ?? "small");
let pending = "";
process.stdin.on("data", (chunk) => {
  const text = pending + chunk.toString("utf8");
  let start = 0;
  let newline = text.indexOf("\n");
  let out = "";
  while (newline !== -1) {
    const request = JSON.parse(text.slice(start, newline));
    out += `${JSON.stringify({ type: "frames", id: request.id, result })}\n`;
    start = newline + 1;
    newline = text.indexOf("\n", start);
  }
  pending = text.slice(start);
  if (out !== "") process.stdout.write(out);
});
process.stdin.on("end", () => process.exit(0));
