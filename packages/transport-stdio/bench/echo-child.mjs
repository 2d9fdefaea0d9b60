// The raw baseline: echoes every NDJSON line it reads, as it reads it.
let pending = "";
process.stdin.on("data", (chunk) => {
  const text = pending + chunk.toString("utf8");
  const last = text.lastIndexOf("\n");
  if (last === -1) {
    pending = text;
    return;
  }
  pending = text.slice(last + 1);
  process.stdout.write(text.slice(0, last + 1));
});
