// A minimal OCP provider over NDJSON, as cheap as the echo child: one reply
// line per request line, the frames reply pre-encoded (id spliced in when the
// query has one). --correlation declares capabilities.correlation.
const correlation = process.argv.includes("--correlation");
const ack = JSON.stringify({
  type: "handshake_ack",
  protocol_version: "ocp/1.0-draft",
  provider: {
    name: "bench",
    version: "1.0.0",
    data_flow: { reads: true, writes: false, egress: false },
  },
  capabilities: {
    query: { kinds: ["doc"], filters: [] },
    upsert: false,
    graph: false,
    subscribe: false,
    correlation,
  },
});
const result = JSON.stringify({
  frames: [
    {
      id: "bench:1",
      kind: "doc",
      title: "Bench",
      content: "a small frame",
      score: 0.5,
      token_cost: 4,
      citation_label: "bench",
    },
  ],
  truncated: false,
});
const ID = /^\{"type":"query","id":"([^"]*)"/;
let pending = "";
process.stdin.on("data", (chunk) => {
  const text = pending + chunk.toString("utf8");
  const lines = text.split("\n");
  pending = lines.pop();
  let out = "";
  for (const line of lines) {
    if (line.startsWith('{"type":"handshake"')) out += `${ack}\n`;
    else if (line.startsWith('{"type":"query"')) {
      const id = ID.exec(line)?.[1];
      out +=
        id === undefined
          ? `{"type":"frames","result":${result}}\n`
          : `{"type":"frames","id":"${id}","result":${result}}\n`;
    } else if (line.startsWith('{"type":"shutdown"')) process.exit(0);
  }
  if (out !== "") process.stdout.write(out);
});
process.stdin.on("end", () => process.exit(0));
