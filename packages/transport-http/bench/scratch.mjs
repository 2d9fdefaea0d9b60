// scratch: raw node:http vs bare fastify vs ours, same raw client, in-process servers in a child
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { Pool } from "undici";
import { benchWireQuery } from "../../transport-stdio/bench/frames.mjs";
import { compare, report } from "../../transport-stdio/bench/harness.mjs";

if (process.argv[2] === "child") {
  const { createServer } = await import("node:http");
  const Fastify = (await import("fastify")).default;
  const { benchCapabilities, benchInfo, benchResult, benchWireResult } = await import(
    "../../transport-stdio/bench/frames.mjs"
  );
  const { createHttpProviderServer } = await import("../dist/index.js");
  const wire = benchWireResult("small");
  const result = benchResult("small");
  const raw = createServer((q, s) => {
    const c = [];
    q.on("data", (x) => c.push(x));
    q.on("end", () => {
      const e = JSON.parse(Buffer.concat(c).toString("utf8"));
      const b = JSON.stringify({ type: "frames", id: e.id, result: wire });
      s.writeHead(200, {
        "content-type": "application/json; charset=utf-8",
        "content-length": Buffer.byteLength(b),
      });
      s.end(b);
    });
  });
  await new Promise((r) => raw.listen(0, "127.0.0.1", r));
  const f = Fastify({ logger: false });
  f.post("/", async (req, reply) => {
    const b = JSON.stringify({ type: "frames", id: req.body.id, result: wire });
    return reply.type("application/json").send(b);
  });
  const furl = await f.listen({ host: "127.0.0.1", port: 0 });
  const g = Fastify({ logger: false, bodyLimit: 16777216, requestTimeout: 30000, forceCloseConnections: true });
  g.removeAllContentTypeParsers();
  g.addContentTypeParser("application/json", { parseAs: "string", bodyLimit: 16777216 }, (_r, b, d) => d(null, b));
  g.addContentTypeParser("*", { parseAs: "string", bodyLimit: 16777216 }, (_r, b, d) => d(null, undefined));
  g.setErrorHandler((e, q, r) => r.code(500).send("x"));
  g.setNotFoundHandler((q, r) => r.code(404).send("x"));
  g.post("/", async (req, reply) => { const e = JSON.parse(req.body); const b = JSON.stringify({ type: "frames", id: e.id, result: wire }); return reply.code(200).type("application/json; charset=utf-8").send(b); });
  const gurl = await g.listen({ host: "127.0.0.1", port: 0 });
  const off = await createHttpProviderServer({ id: "bench", info: benchInfo, capabilities: benchCapabilities, async query() { return result; }, async shutdown() {} }, { guard: "off" }).listen();
  const ours = await createHttpProviderServer({
    id: "bench",
    info: benchInfo,
    capabilities: benchCapabilities,
    async query() {
      return result;
    },
    async shutdown() {},
  }).listen();
  process.stdout.write(
    JSON.stringify({ raw: `http://127.0.0.1:${raw.address().port}/`, fastify: `${furl}/`, ourcfg: `${gurl}/`, off, ours }) +
      "\n",
  );
  process.stdin.resume();
  process.stdin.on("end", () => process.exit(0));
} else {
  const proc = spawn(process.execPath, [new URL(import.meta.url).pathname, "child"], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const urls = JSON.parse(
    await new Promise((r) => createInterface({ input: proc.stdout }).once("line", r)),
  );
  const client = (url) => {
    const pool = new Pool(new URL(url).origin, { connections: 8 });
    let n = 0;
    return async () => {
      const r = await pool.request({
        path: "/",
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ type: "query", id: (++n).toString(36), query: benchWireQuery }),
      });
      return JSON.parse(await r.body.text());
    };
  };
  const res = await compare(
    { raw: client(urls.raw), "bare fastify": client(urls.fastify), "fastify our config": client(urls.ourcfg), "ours guard off": client(urls.off), ours: client(urls.ours) },
    1,
  );
  report("small", res, {});
  proc.stdin.end();
  process.exit(0);
}
