// The servers of the HTTP bench, in their own process: a bare node:http echo
// server (the baseline), createHttpProviderServer with a trivial provider,
// and a bare node:http OCP responder (to isolate the client). Prints their
// URLs as one JSON line on stdout, then serves until stdin closes.
import { createServer } from "node:http";
import { createHttpProviderServer } from "../dist/index.js";

const frame = {
  id: "bench:1",
  kind: "doc",
  title: "Bench",
  content: "a small frame",
  score: 0.5,
  token_cost: 4,
  citation_label: "bench",
};
const result = { frames: [frame], truncated: false };
const info = {
  name: "bench",
  version: "1.0.0",
  data_flow: { reads: true, writes: false, egress: false },
};
const capabilities = {
  query: { kinds: ["doc"], filters: [] },
  upsert: false,
  graph: false,
  subscribe: false,
};

function bare(answer) {
  const server = createServer((request, response) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      const body = answer(Buffer.concat(chunks).toString("utf8"));
      response.writeHead(200, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
      });
      response.end(body);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${server.address().port}/`)),
  );
}

const ack = JSON.stringify({
  type: "handshake_ack",
  protocol_version: "ocp/1.0-draft",
  provider: info,
  capabilities,
});
const frames = JSON.stringify({ type: "frames", result });
const echo = await bare((body) => body);
const responder = await bare((body) => (body.startsWith('{"type":"handshake"') ? ack : frames));
const fastify = await createHttpProviderServer({
  id: "bench",
  info,
  capabilities,
  query: async () => result,
  shutdown: async () => {},
}).listen();
process.stdout.write(`${JSON.stringify({ echo, responder, fastify })}\n`);
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
