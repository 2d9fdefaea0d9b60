// pnpm bench (hub): deliveries/s of signed messages through the hub, recipients
// verifying, beside a raw `ws` broadcast of the same bytes to recipients that
// verify the same way, and the hub verifying every forwarded message: the three
// arms interleaved over BENCH_ROUNDS rounds (order rotated each round), with
// medians, spread and ratios paired per round; then the hub's memory per
// connected agent at 1,000 agents (the hub in its own process, by its RSS).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { HubClient } from "@ocp/a2a-ocp-client";
import {
  createAgentProfile,
  createMessage,
  generateIdentity,
  keyLookupFromProfiles,
  signObject,
} from "@ocp/a2a-ocp-messaging";
import { createNodeInboundPipeline, nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { WebSocket, WebSocketServer } from "ws";
import { OCPHub } from "../dist/index.js";
import { rotated, spread } from "./stats.mjs";
import { waitFor } from "./wait.mjs";

const SUBSCRIBERS = [10, 200];
/** Deliveries per run: messages = DELIVERIES / subscribers. */
const DELIVERIES = Number(process.env.BENCH_HUB_DELIVERIES ?? 10_000);
const MEMORY_AGENTS = Number(process.env.BENCH_HUB_AGENTS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
let runs = 0;
const dir = mkdtempSync(join(tmpdir(), "ocp-hub-bench-"));
const publisher = generateIdentity("a2a://bench-publisher");
const publisherProfile = createAgentProfile(publisher, {}, nativeEd25519);

function signedMessages(count) {
  return Array.from({ length: count }, (_, i) =>
    JSON.stringify(
      signObject(
        createMessage({
          type: "ocp.custom.bench",
          from: publisher.id,
          to: "broadcast",
          payload: { i, text: "a knowledge-sized payload ".repeat(12) },
        }),
        publisher.secretKey,
        nativeEd25519,
      ),
    ),
  );
}

/** Raw ws: one server broadcasting the same bytes; each recipient runs the inbound pipeline. */
async function rawRun(subscribers, messages) {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, perMessageDeflate: false });
  await new Promise((resolve) => wss.once("listening", resolve));
  const url = `ws://127.0.0.1:${wss.address().port}`;
  const lookupKey = keyLookupFromProfiles([publisherProfile]);
  let received = 0;
  const sockets = [];
  const serverSide = [];
  wss.on("connection", (ws) => serverSide.push(ws));
  for (let i = 0; i < subscribers; i++) {
    const pipeline = createNodeInboundPipeline({ lookupKey });
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.on("message", (data) => {
      pipeline.accept(data.toString()).then((r) => {
        if (r.ok) received += 1;
      });
    });
    await new Promise((resolve) => ws.once("open", resolve));
    sockets.push(ws);
  }
  await waitFor(() => serverSide.length === subscribers);
  const bytes = messages.map((m) => Buffer.from(m));
  const start = performance.now();
  for (const b of bytes) for (const ws of serverSide) ws.send(b);
  await waitFor(() => received === subscribers * messages.length);
  const seconds = (performance.now() - start) / 1000;
  for (const ws of sockets) ws.terminate();
  await new Promise((resolve) => wss.close(resolve));
  return (subscribers * messages.length) / seconds;
}

/** Through the hub: a HubClient publisher, HubClient subscribers (verifying). */
async function hubRun(subscribers, messages, verifyForwarded) {
  const hub = await OCPHub.start({
    dbPath: join(dir, `bench-${subscribers}-${verifyForwarded}-${runs++}.sqlite`),
    rateLimits: false,
    verifyForwarded,
  });
  let received = 0;
  const clients = [];
  for (let i = 0; i < subscribers; i++) {
    const c = new HubClient({
      url: hub.url,
      identity: generateIdentity(`a2a://bench-sub-${i}`),
      lookupKey: keyLookupFromProfiles([publisherProfile]),
    });
    c.on("message", () => {
      received += 1;
    });
    await c.connect();
    clients.push(c);
  }
  const pub = await HubClient.connect({
    url: hub.url,
    identity: publisher,
    profile: publisherProfile,
  });
  const start = performance.now();
  await Promise.all(messages.map((m) => pub.send(JSON.parse(m))));
  await waitFor(() => received === subscribers * messages.length);
  const seconds = (performance.now() - start) / 1000;
  await Promise.all([...clients, pub].map((c) => c.close()));
  await hub.close();
  return (subscribers * messages.length) / seconds;
}

function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** The hub's RSS growth per connected agent, the hub being the `ocp-hub` CLI in a child process. */
async function memoryRun(agents) {
  const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
  const child = spawn(process.execPath, [cli, "--db", join(dir, "memory.sqlite"), "--port", "0"], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  const url = await new Promise((resolve) =>
    createInterface({ input: child.stdout }).once("line", resolve),
  );
  const ids = Array.from({ length: agents }, (_, i) => generateIdentity(`a2a://bench-mem-${i}`));
  // Warm the hub up (code paths, SQLite page cache) with a few agents first.
  const warm = await Promise.all(
    ids.slice(0, 20).map((identity) => HubClient.connect({ url, identity })),
  );
  await Promise.all(warm.map((c) => c.close()));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const before = rssOf(child.pid);
  const clients = [];
  for (let i = 0; i < agents; i += 50) {
    clients.push(
      ...(await Promise.all(
        ids.slice(i, i + 50).map((identity) => HubClient.connect({ url, identity })),
      )),
    );
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const after = rssOf(child.pid);
  await Promise.all(clients.map((c) => c.close()));
  child.kill("SIGTERM");
  return { before, after, perAgent: (after - before) / agents };
}

console.log(
  `hub bench — node ${process.version}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}, ${DELIVERIES} deliveries per run, ${ROUNDS} rounds (arms interleaved)`,
);
try {
  for (const subscribers of SUBSCRIBERS) {
    const messages = signedMessages(Math.max(1, Math.round(DELIVERIES / subscribers)));
    const arms = {
      raw: () => rawRun(subscribers, messages),
      hub: () => hubRun(subscribers, messages, false),
      verify: () => hubRun(subscribers, messages, true),
    };
    // Warm-up, not reported.
    await rawRun(subscribers, messages.slice(0, Math.min(messages.length, 20)));
    await hubRun(subscribers, messages.slice(0, Math.min(messages.length, 20)), true);
    const rates = { raw: [], hub: [], verify: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of rotated(Object.keys(arms), round)) rates[name].push(await arms[name]());
    }
    const ratio = (name) => rates[name].map((r, i) => r / rates.raw[i]);
    console.log(
      `${String(subscribers).padStart(3)} subscribers, ${messages.length} messages of ${Buffer.byteLength(messages[0])} bytes (deliveries/s: median (min–max, spread); ratio to raw paired per round):`,
    );
    console.log(`  raw ws broadcast, recipients verifying   ${spread(rates.raw)}`);
    console.log(
      `  hub, recipients verifying                ${spread(rates.hub)}   ${spread(ratio("hub"), 2)}x raw`,
    );
    console.log(
      `  hub verifying every forwarded message    ${spread(rates.verify)}   ${spread(ratio("verify"), 2)}x raw`,
    );
  }
  const memory = await memoryRun(MEMORY_AGENTS);
  console.log(
    `hub memory: ${MEMORY_AGENTS} agents connected, RSS ${(memory.before / 1e6).toFixed(1)} MB → ${(memory.after / 1e6).toFixed(1)} MB, ${(memory.perAgent / 1024).toFixed(1)} KB per agent (target < 100 KB)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
