// Drives sequential queries for a CPU profile of both processes (not a
// bench: no baseline, no figures to compare). The servers of servers.mjs run
// in a child under `node --cpu-prof`; run this file under `node --cpu-prof`
// too for the client's side, then read either with cpuprofile.mjs:
//   node --cpu-prof --cpu-prof-dir=$DIR/client bench/profile.mjs ours|raw-client|raw small|large [seconds]
//   node bench/cpuprofile.mjs $DIR/server/*.cpuprofile
// ours: connectHttpProvider -> createHttpProviderServer; raw-client: the
// bench's raw client -> createHttpProviderServer; raw: raw client -> bare node:http.
// PROF_DIR (default $TMPDIR/ocp-http-profile) is $DIR, the server's profile goes under server/.
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Pool } from "undici";
import { benchQuery, benchWireQuery } from "../../transport-stdio/bench/frames.mjs";
import { connectHttpProvider } from "../dist/index.js";

const [mode = "ours", size = "small", seconds = "5"] = process.argv.slice(2);
if (!["ours", "raw-client", "raw"].includes(mode) || !["small", "large"].includes(size)) {
  console.error("usage: node bench/profile.mjs ours|raw-client|raw small|large [seconds]");
  process.exit(2);
}
const proc = spawn(
  process.execPath,
  [
    "--cpu-prof",
    `--cpu-prof-dir=${join(process.env.PROF_DIR ?? join(tmpdir(), "ocp-http-profile"), "server")}`,
    fileURLToPath(new URL("servers.mjs", import.meta.url)),
    size,
  ],
  { stdio: ["pipe", "pipe", "inherit"] },
);
const urls = JSON.parse(
  await new Promise((resolve) => createInterface({ input: proc.stdout }).once("line", resolve)),
);
let call;
if (mode === "ours") {
  const provider = await connectHttpProvider({ id: "profile", url: urls.fastify });
  call = () => provider.query(benchQuery);
} else {
  const url = new URL(mode === "raw" ? urls.raw : urls.fastify);
  const pool = new Pool(url.origin, { connections: 8 });
  let next = 0;
  call = async () => {
    const response = await pool.request({
      path: url.pathname,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "query", id: (++next).toString(36), query: benchWireQuery }),
    });
    return JSON.parse(await response.body.text());
  };
}
const end = performance.now() + Number(seconds) * 1000;
let count = 0;
while (performance.now() < end) {
  await call();
  count += 1;
}
console.log(`${mode} ${size}: ${count} queries in ${seconds} s`);
proc.stdin.end();
await new Promise((resolve) => proc.on("exit", resolve));
process.exit(0);
