// The servers of the HTTP benches, in a process of their own: a bare
// node:http server answering every POST with the bench reply (JSON.parse of
// the body, JSON.stringify of the same reply bytes the OCP server sends), and
// createHttpProviderServer (fastify, guard rail on) serving the bench frames.
// Usage: node http-servers.mjs small|large. Prints their URLs as one JSON
// line, then serves until stdin closes.
import { createServer } from "node:http";
import {
  benchCapabilities,
  benchInfo,
  benchResult,
  benchWireResult,
} from "../../transport-stdio/bench/frames.mjs";
import { createHttpProviderServer } from "../dist/index.js";

const size = process.argv[2] ?? "small";
const result = benchResult(size);
const wire = benchWireResult(size);

const raw = createServer((request, response) => {
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", () => {
    const envelope = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const body = JSON.stringify({ type: "frames", id: envelope.id, result: wire });
    response.writeHead(200, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(body),
    });
    response.end(body);
  });
});
await new Promise((resolve) => raw.listen(0, "127.0.0.1", resolve));
const fastify = await createHttpProviderServer({
  id: "bench",
  info: benchInfo,
  capabilities: benchCapabilities,
  async query() {
    return result;
  },
  async shutdown() {},
}).listen();
process.stdout.write(
  `${JSON.stringify({ raw: `http://127.0.0.1:${raw.address().port}/`, fastify })}\n`,
);
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
