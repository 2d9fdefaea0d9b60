// pnpm bench: the same workload on one hub (SQLite), on three hubs clustered
// over NATS JetStream, and on NATS alone (JetStream publish with ack of the
// same bytes, received by a core subscriber: the engine's own ceiling), all in
// one run, with the ratios. Needs `nats-server` on PATH (apt-get install -y
// nats-server). Every hub is its own `ocp-hub` process; producers and
// consumers are HubClients in this process (signing is done before timing).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, Socket } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { HubClient } from "@ocp/a2a-ocp-client";
import { createMessage, generateIdentity, signObject } from "@ocp/a2a-ocp-messaging";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";

const TOTAL = Number(process.env.BENCH_CLUSTER_MESSAGES ?? 1500);
const PAIRS = 3;
const WINDOW = 16;
const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const STEP_TIMEOUT_MS = 120_000;

if (spawnSync("nats-server", ["--version"]).error !== undefined) {
  process.stderr.write(
    "cluster bench: nats-server is not on PATH; install it: apt-get install -y nats-server\n",
  );
  process.exit(1);
}

const dir = mkdtempSync(join(tmpdir(), "ocp-cluster-bench-"));
const children = [];

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const ok = await new Promise((resolve) => {
      const s = new Socket();
      s.once("connect", () => {
        s.destroy();
        resolve(true);
      });
      s.once("error", () => resolve(false));
      s.connect(port, "127.0.0.1");
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${port}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function startNats() {
  const port = await freePort();
  const child = spawn(
    "nats-server",
    ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", join(dir, "js")],
    {
      stdio: "ignore",
    },
  );
  children.push(child);
  await waitForPort(port);
  return `nats://127.0.0.1:${port}`;
}

function startHub(args) {
  const child = spawn(process.execPath, [CLI, "--no-rate-limits", ...args], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("hub did not start")), 20_000);
    createInterface({ input: child.stdout }).once("line", (url) => {
      clearTimeout(timer);
      resolve(url);
    });
  });
}

const pad = "x".repeat(300);
function wireFor(from, to, i) {
  return signObject(
    createMessage({
      type: "ocp.knowledge.stream",
      from: from.id,
      to: to.id,
      payload: {
        streamId: "bench",
        nodes: [
          {
            id: `n-${i}`,
            type: "code.solution",
            title: "WebSocket memory leak fix",
            data: { code: "ws.on('close', () => { connections.delete(id); })", pad },
            confidence: 0.9,
            timestamp: new Date().toISOString(),
            createdBy: from.id,
            tags: ["websocket"],
          },
        ],
        isIncremental: true,
        sequenceNumber: i,
      },
    }),
    from.secretKey,
    nativeEd25519,
  );
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs `send(i)` for `count` items with `WINDOW` in flight per lane; `done` resolves when all arrived. */
async function measure(lanes, perLane, runLane, arrivedAll) {
  const start = performance.now();
  await Promise.all(lanes.map((lane) => runLane(lane, perLane)));
  await arrivedAll();
  return (performance.now() - start) / 1000;
}

async function hubWorkload(urlsFor, label) {
  const perLane = Math.floor(TOTAL / PAIRS);
  const lanes = [];
  const latencies = [];
  let arrived = 0;
  const sentAt = new Map();
  for (let p = 0; p < PAIRS; p++) {
    const producerId = generateIdentity(`a2a://bench-${label}-producer-${p}`);
    const consumerId = generateIdentity(`a2a://bench-${label}-consumer-${p}`);
    const producer = await HubClient.connect({ url: urlsFor(p, "producer"), identity: producerId });
    const consumer = await HubClient.connect({ url: urlsFor(p, "consumer"), identity: consumerId });
    consumer.on("message", (m) => {
      const t = sentAt.get(m.wire.id);
      if (t === undefined) return;
      latencies.push(performance.now() - t);
      sentAt.delete(m.wire.id);
      arrived += 1;
    });
    const wires = Array.from({ length: perLane }, (_, i) => wireFor(producerId, consumerId, i));
    lanes.push({ producer, consumer, wires });
  }
  const runLane = async (lane) => {
    let next = 0;
    const worker = async () => {
      while (next < lane.wires.length) {
        const wire = lane.wires[next++];
        sentAt.set(wire.id, performance.now());
        await lane.producer.send(wire);
      }
    };
    await Promise.all(Array.from({ length: WINDOW }, worker));
  };
  const expected = perLane * PAIRS;
  const seconds = await measure(lanes, perLane, runLane, async () => {
    const deadline = Date.now() + STEP_TIMEOUT_MS;
    while (arrived < expected) {
      if (Date.now() > deadline) throw new Error(`${label}: ${arrived}/${expected} arrived`);
      await new Promise((r) => setTimeout(r, 5));
    }
  });
  for (const lane of lanes) {
    await lane.producer.close();
    await lane.consumer.close();
  }
  latencies.sort((a, b) => a - b);
  return {
    rate: expected / seconds,
    p99: percentile(latencies, 99),
    p50: percentile(latencies, 50),
  };
}

async function natsAlone(natsUrl) {
  const nc = await connect({ servers: natsUrl });
  const jsm = await jetstreamManager(nc);
  await jsm.streams.add({ name: "BENCH_ALONE", subjects: ["bench.alone.>"], storage: "file" });
  const js = jetstream(nc);
  const perLane = Math.floor(TOTAL / PAIRS);
  const latencies = [];
  let arrived = 0;
  const sentAt = new Map();
  const lanes = [];
  const enc = new TextEncoder();
  for (let p = 0; p < PAIRS; p++) {
    const from = generateIdentity(`a2a://bench-alone-producer-${p}`);
    const to = generateIdentity(`a2a://bench-alone-consumer-${p}`);
    const subject = `bench.alone.${p}`;
    nc.subscribe(subject, {
      callback: (_error, msg) => {
        const id = msg.headers?.get("Nats-Msg-Id");
        const t = sentAt.get(id);
        if (t === undefined) return;
        latencies.push(performance.now() - t);
        sentAt.delete(id);
        arrived += 1;
      },
    });
    const wires = Array.from({ length: perLane }, (_, i) => wireFor(from, to, i));
    lanes.push({ subject, wires });
  }
  await nc.flush();
  const runLane = async (lane) => {
    let next = 0;
    const worker = async () => {
      while (next < lane.wires.length) {
        const wire = lane.wires[next++];
        sentAt.set(wire.id, performance.now());
        await js.publish(lane.subject, enc.encode(JSON.stringify(wire)), { msgID: wire.id });
      }
    };
    await Promise.all(Array.from({ length: WINDOW }, worker));
  };
  const expected = perLane * PAIRS;
  const seconds = await measure(lanes, perLane, runLane, async () => {
    const deadline = Date.now() + STEP_TIMEOUT_MS;
    while (arrived < expected) {
      if (Date.now() > deadline) throw new Error(`nats alone: ${arrived}/${expected} arrived`);
      await new Promise((r) => setTimeout(r, 5));
    }
  });
  await jsm.streams.delete("BENCH_ALONE");
  await nc.drain();
  latencies.sort((a, b) => a - b);
  return {
    rate: expected / seconds,
    p99: percentile(latencies, 99),
    p50: percentile(latencies, 50),
  };
}

try {
  const natsUrl = await startNats();
  const single = await startHub(["--db", join(dir, "hub.sqlite")]);
  const cluster = [];
  for (let i = 0; i < 3; i++)
    cluster.push(await startHub(["--nats", natsUrl, "--workspace", "bench"]));
  const size = JSON.stringify(
    wireFor(generateIdentity("a2a://s"), generateIdentity("a2a://t"), 0),
  ).length;
  // Warm-up pass (JIT, streams, connections), not reported.
  await hubWorkload(() => single, "warm");
  const results = {
    one: await hubWorkload(() => single, "one"),
    // Producer on hub p, its consumer on hub p + 1: every message crosses hubs.
    three: await hubWorkload(
      (p, role) => cluster[(p + (role === "consumer" ? 1 : 0)) % 3],
      "three",
    ),
    alone: await natsAlone(natsUrl),
  };
  const line = (name, r, base) =>
    `${name.padEnd(34)}${r.rate.toFixed(0).padStart(8)} msg/s   p50 ${r.p50.toFixed(1).padStart(6)} ms   p99 ${r.p99.toFixed(1).padStart(6)} ms` +
    (base === undefined
      ? ""
      : `   ${(base.rate / r.rate).toFixed(2)}x slower, p99 ${(r.p99 / base.p99).toFixed(1)}x higher`);
  process.stdout.write(
    `cluster bench: ${PAIRS} producer→consumer pairs, ${TOTAL} durable direct messages of ${size} bytes, ${WINDOW} in flight per producer, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}\n`,
  );
  process.stdout.write(`${line("NATS alone (JetStream, baseline)", results.alone)}\n`);
  process.stdout.write(`${line("one hub (SQLite)", results.one, results.alone)}\n`);
  process.stdout.write(`${line("three hubs over NATS", results.three, results.alone)}\n`);
  process.stdout.write(
    `three hubs / one hub: ${(results.three.rate / results.one.rate).toFixed(2)}x the throughput, ${(results.three.p99 / results.one.p99).toFixed(2)}x the p99\n`,
  );
} finally {
  for (const child of children) child.kill("SIGTERM");
  await new Promise((r) => setTimeout(r, 200));
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
}
