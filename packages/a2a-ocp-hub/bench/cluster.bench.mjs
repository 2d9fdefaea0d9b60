// pnpm bench (cluster): one workload — PAIRS producer→consumer pairs, the same
// signed durable direct messages, WINDOW in flight per producer — through
//   - core NATS pub/sub (in flight until the subscriber has it: no ack exists),
//   - JetStream publish with ack (file storage; a core subscriber receives),
//   - the same JetStream arm carrying the protocol's own cryptography: one
//     Ed25519 check where a message enters (standing in for the accepting
//     hub's, §8.3) and one at the recipient after parsing the bytes, with the
//     fastest exact verifier here (`nativeEd25519`: libsodium when present),
//   - three `ocp-hub --nats` processes (producer on hub p, consumer on hub p+1),
//   - one `ocp-hub` on SQLite,
// arms interleaved over ROUNDS (order rotated each round), with medians, spread,
// p50/p99 latency (send → receipt), CPU per message, run-queue waits per
// process (Linux) and the ratio of three hubs to JetStream publish+ack, paired
// per round. Needs `nats-server` on PATH.
//
// Env: BENCH_CLUSTER_MESSAGES (per arm per round, 1500), BENCH_ROUNDS (5),
// BENCH_ARMS (comma-separated subset of core,jetstream,jscrypto,three,one), BENCH_PAIRS (3),
// BENCH_WINDOW (16), BENCH_WARMUP_MESSAGES (per arm before the timed rounds, 12000;
// 0: none, the timed rounds start with fresh processes, as a bench from outside does),
// BENCH_HUB_ARGS (extra ocp-hub options, e.g. "--warmup 0" for hubs that skip
// their start-up warm-up), BENCH_HUB_NODE_ARGS (extra node flags for the hub processes, e.g.
// "--cpu-prof --cpu-prof-dir=prof" to profile them), BENCH_HUB_LOG_DIR (where the
// hubs' other stdout lines go, e.g. those of "--trace-deopt"), BENCH_AGENTS ("one":
// every agent on this thread, the default; "threads": a worker thread per pair),
// BENCH_RECIPIENTS ("online", the default; "offline": hub arms only, each
// consumer registers once and disconnects, so every message is committed and
// acknowledged but none delivered live, and a message counts when its ack
// arrives: what accepting costs without delivering).
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connect, headers as natsHeadersOf } from "@nats-io/transport-node";
import { HubClient } from "@ocp/a2a-ocp-client";
import { generateIdentity, verifyObject } from "@ocp/a2a-ocp-messaging";
import { nativeEd25519, nativeEd25519Library } from "@ocp/a2a-ocp-messaging/node";
import { wireFor } from "./cluster-wire.mjs";
import { floorLine, verifyMicros } from "./floor.mjs";
import { cpuOf, freePort, machineTicks, runQueueWaitOf, selfCpu, waitForPort } from "./procs.mjs";
import { median, percentile, rotated, spread } from "./stats.mjs";

const TOTAL = Number(process.env.BENCH_CLUSTER_MESSAGES ?? 1500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ARMS = (process.env.BENCH_ARMS ?? "core,jetstream,jscrypto,three,one").split(",");
const HUB_NODE_ARGS = (process.env.BENCH_HUB_NODE_ARGS ?? "").split(" ").filter(Boolean);
const HUB_ARGS = (process.env.BENCH_HUB_ARGS ?? "").split(" ").filter(Boolean);
const HUB_LOG_DIR = process.env.BENCH_HUB_LOG_DIR;
const PAIRS = Number(process.env.BENCH_PAIRS ?? 3);
const WINDOW = Number(process.env.BENCH_WINDOW ?? 16);
/**
 * Where the agents run: "one" (default), every pair's producer and consumer on
 * this process's one thread; "threads", each pair in a worker thread of its own
 * (cluster-agents.mjs), as agents with event loops of their own. Same wires,
 * same window, same arms.
 */
const AGENTS = process.env.BENCH_AGENTS ?? "one";
if (AGENTS !== "one" && AGENTS !== "threads") {
  process.stderr.write(`cluster bench: BENCH_AGENTS must be "one" or "threads", not ${AGENTS}\n`);
  process.exit(2);
}
/** "offline": the hub arms' recipients are registered but not connected (see the header). */
const RECIPIENTS = process.env.BENCH_RECIPIENTS ?? "online";
if (RECIPIENTS !== "online" && RECIPIENTS !== "offline") {
  process.stderr.write(
    `cluster bench: BENCH_RECIPIENTS must be "online" or "offline", not ${RECIPIENTS}\n`,
  );
  process.exit(2);
}
if (
  RECIPIENTS === "offline" &&
  (AGENTS !== "one" || !ARMS.every((arm) => arm === "three" || arm === "one"))
) {
  process.stderr.write(
    "cluster bench: BENCH_RECIPIENTS=offline takes hub arms only (BENCH_ARMS=three,one) and BENCH_AGENTS=one\n",
  );
  process.exit(2);
}
const offline = RECIPIENTS === "offline";
/**
 * Messages each arm carries before the timed rounds. A fresh hub process runs
 * its first several thousand messages with V8's optimizing compiler busy on
 * background threads and about twice the CPU per message of its steady state
 * (bench/RESULTS.md, "Cluster"); the rounds measure the steady state, the warm-up line
 * prints the cold start. 0: no warm-up at all (the cold figures of a bench from outside).
 */
const WARMUP = Number(process.env.BENCH_WARMUP_MESSAGES ?? 12_000);
if (!Number.isSafeInteger(WARMUP) || WARMUP < 0) {
  process.stderr.write(`cluster bench: BENCH_WARMUP_MESSAGES must be 0 or more, not ${WARMUP}\n`);
  process.exit(2);
}
/** Goal of issue 18: three hubs deliver at least this share of JetStream publish+ack. */
const GOAL = 0.33;
/**
 * Goal of issue 41: three hubs deliver at least this share of JetStream
 * carrying the same two Ed25519 checks (the fair baseline: the hub keeps its
 * §8.3 check), with p99 under P99_GOAL_MS.
 */
const CRYPTO_GOAL = 0.5;
const P99_GOAL_MS = 50;
const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const STEP_TIMEOUT_MS = 120_000;
const perLane = Math.floor(TOTAL / PAIRS);
const expected = perLane * PAIRS;

if (spawnSync("nats-server", ["--version"]).error !== undefined) {
  process.stderr.write(
    "cluster bench: nats-server is not on PATH; install it: apt-get install -y nats-server\n",
  );
  process.exit(1);
}

const dir = mkdtempSync(join(tmpdir(), "ocp-cluster-bench-"));
const children = [];
/** Agent worker threads (BENCH_AGENTS=threads), terminated before the processes stop. */
const agentThreads = [];

let natsPid;
async function startNats() {
  const port = await freePort();
  const args = ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", join(dir, "js")];
  const child = spawn("nats-server", args, { stdio: "ignore" });
  natsPid = child.pid;
  children.push(child);
  await waitForPort(port);
  return `nats://127.0.0.1:${port}`;
}

const hubPids = {};
function startHub(arm, args) {
  const child = spawn(
    process.execPath,
    [...HUB_NODE_ARGS, CLI, "--no-rate-limits", ...HUB_ARGS, ...args],
    {
      stdio: ["ignore", "pipe", "ignore"],
    },
  );
  children.push(child);
  hubPids[arm] = [...(hubPids[arm] ?? []), child.pid];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("hub did not start")), 20_000);
    // The hub prints its URL on stdout. V8 flags such as --trace-deopt print
    // there too: those lines go to BENCH_HUB_LOG_DIR/hub-PID.log when it is set.
    const log = HUB_LOG_DIR === undefined ? undefined : join(HUB_LOG_DIR, `hub-${child.pid}.log`);
    let started = false;
    createInterface({ input: child.stdout }).on("line", (line) => {
      if (!started && /^wss?:\/\//.test(line)) {
        started = true;
        clearTimeout(timer);
        resolve(line);
      } else if (log !== undefined) appendFileSync(log, `${line}\n`);
    });
  });
}

/**
 * One timed pass: every lane sends its wires with WINDOW in flight (`send`
 * resolves when the arm counts the message as taken); resolves once every
 * message arrived, with the rate and the send → receipt latencies.
 */
async function timedPass(lanes, send, tracker, pids = []) {
  const cpuBefore = cpuNow(pids);
  const start = performance.now();
  await Promise.all(
    lanes.map(async (lane) => {
      let next = 0;
      const worker = async () => {
        while (next < lane.wires.length) {
          const wire = lane.wires[next++];
          tracker.sentAt.set(wire.id, performance.now());
          await send(lane, wire);
        }
      };
      await Promise.all(Array.from({ length: WINDOW }, worker));
    }),
  );
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  while (tracker.arrived < expected) {
    if (Date.now() > deadline) throw new Error(`${tracker.arrived}/${expected} arrived`);
    await new Promise((r) => setTimeout(r, 2));
  }
  return passFigures(start, cpuBefore, pids, tracker.latencies);
}

/** Rate, p50/p99 latency and CPU µs per message of a pass that started at `start` and just ended. */
function passFigures(start, cpuBefore, pids, latencies) {
  const seconds = (performance.now() - start) / 1000;
  const cpuAfter = cpuNow(pids);
  const sorted = latencies.sort((a, b) => a - b);
  const perMessage = (key) => ((cpuAfter[key] - cpuBefore[key]) * 1000) / expected;
  const waiting = (key) => ((cpuAfter[key] - cpuBefore[key]) / (seconds * 1000)) * 100;
  const ticks = cpuAfter.ticks.total - cpuBefore.ticks.total;
  return {
    waitBench: waiting("waitBench"),
    waitNats: waiting("waitNats"),
    waitHubs: waiting("waitHubs"),
    idle: ticks > 0 ? ((cpuAfter.ticks.idle - cpuBefore.ticks.idle) / ticks) * 100 : undefined,
    rate: expected / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    cpuBench: perMessage("bench"),
    cpuNats: perMessage("nats"),
    cpuHubs: perMessage("hubs"),
  };
}

/**
 * CPU ms of: this process, the NATS server, the hub processes of `arm`; the
 * ms their threads waited for a core (`wait*`); the machine's CPU ticks.
 */
function cpuNow(hubPids) {
  return {
    bench: selfCpu(),
    nats: natsPid === undefined ? 0 : cpuOf(natsPid),
    hubs: hubPids.reduce((sum, pid) => sum + cpuOf(pid), 0),
    waitBench: runQueueWaitOf(process.pid),
    waitNats: natsPid === undefined ? 0 : runQueueWaitOf(natsPid),
    waitHubs: hubPids.reduce((sum, pid) => sum + runQueueWaitOf(pid), 0),
    ticks: machineTicks(),
  };
}

function tracker() {
  return { sentAt: new Map(), latencies: [], arrived: 0, waiters: new Map() };
}

/** Records the arrival of `id`; resolves a waiter on it (core NATS in-flight window). */
function arrive(t, id) {
  const sent = t.sentAt.get(id);
  if (sent === undefined) return;
  t.latencies.push(performance.now() - sent);
  t.sentAt.delete(id);
  t.arrived += 1;
  t.waiters.get(id)?.();
  t.waiters.delete(id);
}

/** A hub arm: PAIRS producer/consumer HubClients, connected once, reused every round. */
async function hubArm(label, urlFor, pids) {
  const pairs = [];
  let current = tracker();
  for (let p = 0; p < PAIRS; p++) {
    const producerId = generateIdentity(`a2a://bench-${label}-producer-${p}`);
    const consumerId = generateIdentity(`a2a://bench-${label}-consumer-${p}`);
    const producer = await HubClient.connect({ url: urlFor(p, "producer"), identity: producerId });
    const consumer = await HubClient.connect({ url: urlFor(p, "consumer"), identity: consumerId });
    consumer.on("message", (m) => arrive(current, m.wire.id));
    // Registered once (its inbox exists), then gone: its messages are stored, not delivered.
    if (offline) await consumer.close();
    pairs.push({ producer, consumer, producerId, consumerId });
  }
  return {
    async round() {
      const lanes = pairs.map((pair) => ({
        producer: pair.producer,
        wires: Array.from({ length: perLane }, (_, i) =>
          wireFor(pair.producerId, pair.consumerId, i),
        ),
      }));
      current = tracker();
      const send = offline
        ? (lane, wire) => lane.producer.send(wire).then(() => arrive(current, wire.id))
        : (lane, wire) => lane.producer.send(wire);
      return timedPass(lanes, send, current, pids);
    },
    async close() {
      for (const pair of pairs) {
        await pair.producer.close();
        if (!offline) await pair.consumer.close();
      }
    },
  };
}

/**
 * A NATS arm: the same wires' JSON bytes on one subject per pair. With
 * `withCrypto` (JetStream only) the producer side checks the signature before
 * publishing and the subscriber parses and checks it before counting the
 * message: the two verifications a hub path must pay.
 */
async function natsArm(natsUrl, label, useJetStream, withCrypto = false) {
  const nc = await connect({ servers: natsUrl });
  const stream = `BENCH_${label.toUpperCase()}`;
  const jsm = await jetstreamManager(nc);
  if (useJetStream) {
    await jsm.streams.add({ name: stream, subjects: [`bench.${label}.>`], storage: "file" });
  }
  const js = jetstream(nc);
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  let current = tracker();
  const ids = [];
  for (let p = 0; p < PAIRS; p++) {
    const subject = `bench.${label}.${p}`;
    const from = generateIdentity(`a2a://bench-${label}-producer-${p}`);
    nc.subscribe(subject, {
      callback: withCrypto
        ? (_error, msg) => {
            const wire = JSON.parse(dec.decode(msg.data));
            if (!verifyObject(wire, from.publicKey, nativeEd25519)) {
              throw new Error(`${label}: a received message does not verify`);
            }
            arrive(current, wire.id);
          }
        : (_error, msg) => arrive(current, msg.headers?.get("Nats-Msg-Id")),
    });
    ids.push({ subject, from, to: generateIdentity(`a2a://bench-${label}-consumer-${p}`) });
  }
  await nc.flush();
  const send = withCrypto
    ? (lane, wire) => {
        if (!verifyObject(wire, lane.from.publicKey, nativeEd25519)) {
          return Promise.reject(new Error(`${label}: a message to publish does not verify`));
        }
        return js.publish(lane.subject, enc.encode(JSON.stringify(wire)), { msgID: wire.id });
      }
    : useJetStream
      ? (lane, wire) =>
          js.publish(lane.subject, enc.encode(JSON.stringify(wire)), { msgID: wire.id })
      : (lane, wire) => {
          // Core NATS has no ack: a message is in flight until the subscriber has it.
          const arrived = new Promise((resolve) => current.waiters.set(wire.id, resolve));
          const h = natsHeaders(wire.id);
          nc.publish(lane.subject, enc.encode(JSON.stringify(wire)), { headers: h });
          return arrived;
        };
  return {
    async round() {
      const lanes = ids.map((lane) => ({
        subject: lane.subject,
        from: lane.from,
        wires: Array.from({ length: perLane }, (_, i) => wireFor(lane.from, lane.to, i)),
      }));
      current = tracker();
      return timedPass(lanes, send, current);
    },
    async close() {
      if (useJetStream) await jsm.streams.delete(stream);
      await nc.drain();
    },
  };
}

function natsHeaders(id) {
  const h = natsHeadersOf();
  h.set("Nats-Msg-Id", id);
  return h;
}

/** An arm whose pairs each run in a worker thread (BENCH_AGENTS=threads); `dataFor(p)` says what pair p talks to. */
async function threadArm(dataFor, pids = []) {
  const workers = [];
  for (let p = 0; p < PAIRS; p++) {
    const worker = new Worker(new URL("./cluster-agents.mjs", import.meta.url), {
      workerData: { ...dataFor(p), window: WINDOW },
    });
    agentThreads.push(worker);
    await replyOf(worker, "ready");
    workers.push(worker);
  }
  return {
    async round() {
      await Promise.all(
        workers.map((w) => {
          w.postMessage({ cmd: "prepare", count: perLane });
          return replyOf(w, "prepared");
        }),
      );
      const cpuBefore = cpuNow(pids);
      const start = performance.now();
      const replies = await Promise.all(
        workers.map((w) => {
          w.postMessage({ cmd: "go" });
          return replyOf(w, "done");
        }),
      );
      return passFigures(
        start,
        cpuBefore,
        pids,
        replies.flatMap((r) => r.latencies),
      );
    },
    async close() {
      for (const w of workers) {
        w.postMessage({ cmd: "close" });
        await replyOf(w, "closed");
        await w.terminate();
      }
    },
  };
}

/** The next message of `worker` that has `key`; rejects on its error or after STEP_TIMEOUT_MS. */
function replyOf(worker, key) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => finish(new Error(`no "${key}" from an agent thread`)),
      STEP_TIMEOUT_MS,
    );
    const onMessage = (m) => {
      if (m[key] !== undefined) finish(undefined, m);
    };
    const onError = (error) => finish(error);
    function finish(error, m) {
      clearTimeout(timer);
      worker.off("message", onMessage);
      worker.off("error", onError);
      if (error === undefined) resolve(m);
      else reject(error);
    }
    worker.on("message", onMessage);
    worker.on("error", onError);
  });
}

const NAMES = {
  core: "core NATS pub/sub",
  jetstream: "JetStream publish+ack",
  jscrypto: "JetStream + 2 Ed25519",
  three: "three hubs over NATS",
  one: "one hub (SQLite)",
};

try {
  const natsUrl = await startNats();
  const arms = {};
  const threads = AGENTS === "threads";
  const natsThreads = async (label, kind) => {
    if (kind === "jetstream" || kind === "jscrypto") {
      const nc = await connect({ servers: natsUrl });
      const jsm = await jetstreamManager(nc);
      await jsm.streams.add({
        name: `BENCH_${label.toUpperCase()}`,
        subjects: [`bench.${label}.>`],
        storage: "file",
      });
      await nc.close();
    }
    return threadArm((p) => ({
      kind,
      label: `${label}-${p}`,
      natsUrl,
      subject: `bench.${label}.${p}`,
    }));
  };
  if (ARMS.includes("core"))
    arms.core = threads ? await natsThreads("core", "core") : await natsArm(natsUrl, "core", false);
  if (ARMS.includes("jetstream"))
    arms.jetstream = threads
      ? await natsThreads("js", "jetstream")
      : await natsArm(natsUrl, "js", true);
  if (ARMS.includes("jscrypto"))
    arms.jscrypto = threads
      ? await natsThreads("jsc", "jscrypto")
      : await natsArm(natsUrl, "jsc", true, true);
  if (ARMS.includes("three")) {
    const cluster = [];
    for (let i = 0; i < 3; i++)
      cluster.push(await startHub("three", ["--nats", natsUrl, "--workspace", "bench"]));
    // Producer on hub p, its consumer on hub p + 1: every message crosses hubs.
    const urlFor = (p, role) => cluster[(p + (role === "consumer" ? 1 : 0)) % 3];
    arms.three = threads
      ? await threadArm(
          (p) => ({
            kind: "hub",
            label: `three-${p}`,
            producerUrl: urlFor(p, "producer"),
            consumerUrl: urlFor(p, "consumer"),
          }),
          hubPids.three,
        )
      : await hubArm("three", urlFor, hubPids.three);
  }
  if (ARMS.includes("one")) {
    const single = await startHub("one", ["--db", join(dir, "hub.sqlite")]);
    arms.one = threads
      ? await threadArm(
          (p) => ({ kind: "hub", label: `one-${p}`, producerUrl: single, consumerUrl: single }),
          hubPids.one,
        )
      : await hubArm("one", () => single, hubPids.one);
  }
  const names = Object.keys(arms);
  const size = JSON.stringify(
    wireFor(generateIdentity("a2a://s"), generateIdentity("a2a://t"), 0),
  ).length;
  process.stdout.write(
    `cluster bench: ${PAIRS} producer→consumer pairs, ${expected} durable direct messages of ${size} bytes per arm and round, ${WINDOW} in flight per producer, ${ROUNDS} rounds (arms interleaved), agents ${AGENTS === "threads" ? "in a worker thread per pair" : "on the bench's one thread"}${offline ? ", recipients offline (a message counts at its ack)" : ""}, node ${process.version}, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}\n`,
  );
  // Warm-up rounds (JIT, streams, connections), interleaved like the timed ones and
  // not counted in them; the first and the last are printed.
  const warmups = WARMUP === 0 ? 0 : Math.max(1, Math.ceil(WARMUP / expected));
  const warm = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < warmups; round++) {
    for (const name of rotated(names, round)) warm[name].push(await arms[name].round());
  }
  process.stdout.write(
    warmups === 0
      ? `no warm-up (BENCH_WARMUP_MESSAGES=0): the timed rounds start with fresh processes${HUB_ARGS.length === 0 ? " (each hub ran its own start-up warm-up, ocp-hub's default)" : ` (ocp-hub ${HUB_ARGS.join(" ")})`}\n`
      : `warm-up: ${warmups} rounds per arm (${warmups * expected} messages); rate and CPU µs per message (bench / nats-server / hubs), first → last warm-up round:\n`,
  );
  for (const name of warmups === 0 ? [] : names) {
    const cold = warm[name][0];
    const hot = warm[name].at(-1);
    const cpu = (r) => [r.cpuBench, r.cpuNats, r.cpuHubs].map((v) => v.toFixed(0)).join(" / ");
    process.stdout.write(
      `  ${NAMES[name].padEnd(24)}${cold.rate.toFixed(0).padStart(6)} msg/s (${cpu(cold)}) → ${hot.rate.toFixed(0).padStart(6)} msg/s (${cpu(hot)})\n`,
    );
  }
  const results = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of rotated(names, round + warmups)) {
      results[name].push(await arms[name].round());
    }
  }
  // What a bench without warm-up measures: fresh hub processes run their first
  // thousands of messages at about twice the CPU per message of their steady
  // state, JetStream much less so. The first round each arm ran (fresh processes):
  for (const base of ["jscrypto", "jetstream"]) {
    if (results.three === undefined || results[base] === undefined) continue;
    const first = (name) => (warmups === 0 ? results : warm)[name][0];
    process.stdout.write(
      `cold (first round, fresh processes): three hubs / ${NAMES[base]} ${(first("three").rate / first(base).rate).toFixed(3)}, three hubs p99 ${first("three").p99.toFixed(1)} ms\n`,
    );
  }
  for (const name of names) await arms[name].close();
  const col = (rs, key, digits) =>
    spread(
      rs.map((r) => r[key]),
      digits,
    );
  for (const name of names) {
    const rs = results[name];
    process.stdout.write(
      `${NAMES[name].padEnd(24)} ${col(rs, "rate", 0).padEnd(28)} msg/s   p50 ${col(rs, "p50", 1).padEnd(26)} ms   p99 ${col(rs, "p99", 1)} ms\n`,
    );
  }
  /** One line per arm: the medians over rounds of `keys`, then what `tail` makes of the median of a key. */
  const medians = (title, keys, tail = () => "") => {
    process.stdout.write(`${title}\n`);
    for (const name of names) {
      const m = (key) => median(results[name].map((r) => r[key])).toFixed(0);
      const cells = keys.map((key) => m(key).padStart(6)).join(" ");
      process.stdout.write(`  ${NAMES[name].padEnd(24)}${cells}${tail(m)}\n`);
    }
  };
  medians("CPU per message, µs (median over rounds): bench process / nats-server / hubs", [
    "cpuBench",
    "cpuNats",
    "cpuHubs",
  ]);
  // Linux only: how CPU-bound the arm was (every process waits for a core when the
  // machine's cores are the limit; a window or one slow process shows otherwise).
  if (names.every((name) => results[name].every((r) => r.idle !== undefined))) {
    medians(
      "waiting for a core, % of the round (median; every thread summed): bench process / nats-server / hubs; machine idle",
      ["waitBench", "waitNats", "waitHubs"],
      (m) => `   idle ${m("idle")}%`,
    );
  }
  const ratio = (a, b) => {
    if (results[a] === undefined || results[b] === undefined) return undefined;
    return results[a].map((r, i) => r.rate / results[b][i].rate);
  };
  const vsJs = ratio("three", "jetstream");
  if (vsJs !== undefined) {
    const m = median(vsJs);
    const p99 = median(results.three.map((r) => r.p99));
    process.stdout.write(
      `three hubs / JetStream publish+ack: ${spread(vsJs, 3)} (paired per round); goal ≥ ${GOAL}: ${m >= GOAL ? "met" : `missed by ${((1 - m / GOAL) * 100).toFixed(0)}%`}; p99 ${p99.toFixed(1)} ms (goal < ${P99_GOAL_MS} ms: ${p99 < P99_GOAL_MS ? "met" : "missed"})\n`,
    );
  }
  if (results.jetstream !== undefined) {
    const from = generateIdentity("a2a://floor-from");
    const cpu = (name) => median(results[name].map((r) => r.cpuBench + r.cpuNats + r.cpuHubs));
    process.stdout.write(
      floorLine({
        verifyUs: verifyMicros(
          wireFor(from, generateIdentity("a2a://floor-to"), 0),
          from.publicKey,
        ),
        jetstreamCpuUs: cpu("jetstream"),
        jetstreamRate: median(results.jetstream.map((r) => r.rate)),
        threeCpuUs: results.three === undefined ? undefined : cpu("three"),
      }),
    );
  }
  if (results.three !== undefined) {
    // Issue 41's framing: what the hubs spend per message beyond the one verification
    // (the accepting hub's; the delivering hub forwards the stored bytes unchecked).
    const from = generateIdentity("a2a://own-from");
    const verifyUs = verifyMicros(
      wireFor(from, generateIdentity("a2a://own-to"), 0),
      from.publicKey,
    );
    const hubsUs = median(results.three.map((r) => r.cpuHubs));
    process.stdout.write(
      `three hubs' own work per message: ${hubsUs.toFixed(0)} µs of hub CPU (both hubs), one Ed25519 verification ${verifyUs.toFixed(0)} µs, everything else ${(hubsUs - verifyUs).toFixed(0)} µs\n`,
    );
  }
  const vsCrypto = ratio("three", "jscrypto");
  if (vsCrypto !== undefined) {
    const m = median(vsCrypto);
    const p99 = median(results.three.map((r) => r.p99));
    const jsP99 = median(results.jscrypto.map((r) => r.p99));
    process.stdout.write(
      `three hubs / JetStream + 2 Ed25519 (${nativeEd25519Library()}): ${spread(vsCrypto, 3)} (paired per round); goal ≥ ${CRYPTO_GOAL}: ${m >= CRYPTO_GOAL ? "met" : `missed by ${((1 - m / CRYPTO_GOAL) * 100).toFixed(0)}%`}; p99 ${p99.toFixed(1)} ms against ${jsP99.toFixed(1)} ms (goal < ${P99_GOAL_MS} ms: ${p99 < P99_GOAL_MS ? "met" : "missed"})\n`,
    );
  }
  const vsCore = ratio("three", "core");
  if (vsCore !== undefined)
    process.stdout.write(`three hubs / core NATS pub/sub: ${spread(vsCore, 3)}\n`);
  const jsCore = ratio("jetstream", "core");
  if (jsCore !== undefined)
    process.stdout.write(`JetStream publish+ack / core NATS pub/sub: ${spread(jsCore, 3)}\n`);
  const threeOne = ratio("three", "one");
  if (threeOne !== undefined)
    process.stdout.write(`three hubs / one hub: ${spread(threeOne, 3)}\n`);
} finally {
  // Hubs first (they drain their NATS connection, and write a profile when asked), then NATS.
  for (const w of agentThreads) await w.terminate();
  for (const child of [...children].reverse()) {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
  rmSync(dir, { recursive: true, force: true });
}
