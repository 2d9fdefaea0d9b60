// Diagnostic (not part of `pnpm bench`; needs nats-server on PATH): what the
// NATS server spends per durable delivery when an inbox stream republishes
// what it stores (how clustered hubs get a delivery to the agent's hub), next
// to the two ways without it, on one nats-server, the same message (the
// cluster bench's signed knowledge stream, about 950 bytes):
//   - "stream subject": a core subscriber on the stream's own subject, as the
//     cluster bench's JetStream arm (the baseline: no second message at all);
//   - "republish": inbox streams configured as the hub makes them (file
//     storage, max_age and duplicate window of NATS_INBOX_MAX_AGE_MS,
//     republish to the live subject), a core subscriber on the live subject;
//   - "client live": the same streams without republish; the publisher
//     publishes the stored message to the live subject itself once acked, with
//     its sequence number (what a hub would do instead).
// Every arm: PAIRS streams, JetStream publish+ack with Nats-Msg-Id and the
// hub's expiry header, WINDOW in flight; arms interleaved over ROUNDS (order
// rotated) after a warm-up round each; medians and spread of rate, nats-server
// CPU and this process's CPU per message, and the server's CPU per message
// relative to the baseline arm.
//
// Env: BENCH_REPUBLISH_MESSAGES (per arm and round, 15000), BENCH_ROUNDS (5),
// BENCH_PAIRS (3), BENCH_WINDOW (48).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connect, headers } from "@nats-io/transport-node";
import { generateIdentity } from "@ocp/a2a-ocp-messaging";
import { NATS_INBOX_MAX_AGE_MS } from "../dist/nats/limits.js";
import { EXPIRES_HEADER } from "../dist/nats/subjects.js";
import { wireFor } from "./cluster-wire.mjs";
import { cpuOf, freePort, selfCpu, waitForPort } from "./procs.mjs";
import { median, rotated, spread } from "./stats.mjs";

const TOTAL = Number(process.env.BENCH_REPUBLISH_MESSAGES ?? 15_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 3);
const WINDOW = Number(process.env.BENCH_WINDOW ?? 48);

if (spawnSync("nats-server", ["--version"]).error !== undefined) {
  process.stderr.write(
    "republish bench: nats-server is not on PATH; install it: apt-get install -y nats-server\n",
  );
  process.exit(1);
}

const dir = mkdtempSync(join(tmpdir(), "ocp-republish-bench-"));
const port = await freePort();
const server = spawn(
  "nats-server",
  ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", join(dir, "js")],
  { stdio: "ignore" },
);

try {
  await waitForPort(port);
  const url = `nats://127.0.0.1:${port}`;
  const pub = await connect({ servers: url });
  const sub = await connect({ servers: url });
  const jsm = await jetstreamManager(pub);
  const js = jetstream(pub);
  const nanos = (ms) => ms * 1_000_000;
  const from = generateIdentity("a2a://republish-from");
  const to = generateIdentity("a2a://republish-to");
  const body = new TextEncoder().encode(JSON.stringify(wireFor(from, to, 0)));
  const expires = String(Date.now() + 3_600_000);

  /** One arm: its streams, its subscriber and how it sends one message. */
  async function arm(name) {
    const inbox = (p) => `bench.${name}.in.${p}`;
    const live = (p) => `bench.${name}.live.${p}`;
    for (let p = 0; p < PAIRS; p++) {
      const config = {
        name: `BENCH_${name.toUpperCase()}_${p}`,
        subjects: [inbox(p)],
        storage: "file",
      };
      if (name !== "plain") {
        config.max_age = nanos(NATS_INBOX_MAX_AGE_MS);
        config.duplicate_window = nanos(NATS_INBOX_MAX_AGE_MS);
      }
      if (name === "republish") config.republish = { src: inbox(p), dest: live(p) };
      await jsm.streams.add(config);
    }
    let arrived = 0;
    let expected = 0;
    let done = () => undefined;
    for (let p = 0; p < PAIRS; p++) {
      sub.subscribe(name === "plain" ? inbox(p) : live(p), {
        callback: () => {
          arrived += 1;
          if (arrived === expected) done();
        },
      });
    }
    await sub.flush();
    let next = 0;
    const send = async (i) => {
      const p = i % PAIRS;
      const h = headers();
      h.set("Nats-Msg-Id", `${name}-${next++}`);
      h.set(EXPIRES_HEADER, expires);
      const ack = await js.publish(inbox(p), body, { headers: h });
      if (name === "client") {
        const seq = headers();
        seq.set("Ocp-Seq", String(ack.seq));
        pub.publish(live(p), body, { headers: seq });
      }
    };
    return async function round(count) {
      arrived = 0;
      expected = count;
      const all = new Promise((resolve) => {
        done = resolve;
      });
      const serverBefore = cpuOf(server.pid);
      const selfBefore = selfCpu();
      const start = performance.now();
      let i = 0;
      const worker = async () => {
        while (i < count) await send(i++);
      };
      await Promise.all(Array.from({ length: WINDOW }, worker));
      await all;
      const seconds = (performance.now() - start) / 1000;
      return {
        rate: count / seconds,
        server: ((cpuOf(server.pid) - serverBefore) * 1000) / count,
        client: ((selfCpu() - selfBefore) * 1000) / count,
      };
    };
  }

  const NAMES = {
    plain: "stream subject (baseline)",
    republish: "republish (the hub's)",
    client: "client publishes live",
  };
  const arms = {};
  for (const name of Object.keys(NAMES)) arms[name] = await arm(name);
  const names = Object.keys(arms);
  process.stdout.write(
    `republish bench: ${PAIRS} streams, ${TOTAL} messages of ${body.length} bytes per arm and round, ${WINDOW} in flight, ${ROUNDS} rounds (arms interleaved), node ${process.version}\n`,
  );
  for (const name of names) await arms[name](TOTAL);
  const results = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of rotated(names, round)) results[name].push(await arms[name](TOTAL));
  }
  const baseline = results.plain;
  for (const name of names) {
    const rs = results[name];
    const col = (key, digits) =>
      spread(
        rs.map((r) => r[key]),
        digits,
      );
    const vs = spread(
      rs.map((r, i) => r.server / baseline[i].server),
      2,
    );
    process.stdout.write(
      `${NAMES[name].padEnd(26)} ${col("rate", 0).padEnd(26)} msg/s   nats-server ${col("server", 1).padEnd(24)} µs/msg (${vs} of the baseline's)   this process ${median(rs.map((r) => r.client)).toFixed(1)} µs/msg\n`,
    );
  }
  await pub.close();
  await sub.close();
} finally {
  server.kill("SIGTERM");
  await new Promise((resolve) => server.once("exit", resolve));
  rmSync(dir, { recursive: true, force: true });
}
