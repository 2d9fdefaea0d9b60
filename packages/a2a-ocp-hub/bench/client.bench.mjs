// pnpm bench (client): the CPU an agent's HubClient spends per message, as a
// sender (send, the hub's ack) and as a recipient (a delivery: checks, §8.3
// verification, the "message" event), beside a raw `ws` client carrying the
// same bytes and doing only what no recipient can skip (JSON.parse and the
// signature check) or no sender can skip (the message's JSON text, parsing the
// ack). The peer (client-peer.mjs) runs in a process of its own, so only the
// client's side is counted; the cluster bench's message, WINDOW in flight for
// senders. Arms interleaved over rounds (order rotated), medians and spread,
// ratios paired per round.
//
// Env: BENCH_CLIENT_MESSAGES (per arm and round, 3000), BENCH_ROUNDS (7, the
// first of them a warm-up not counted), BENCH_WINDOW (16).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { HubClient } from "@ocp/a2a-ocp-client";
import { generateIdentity, verifyObject } from "@ocp/a2a-ocp-messaging";
import { parseDeliver } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519, nativeEd25519Library } from "@ocp/a2a-ocp-messaging/node";
import { WebSocket } from "ws";
import { wireFor } from "./cluster-wire.mjs";
import { median, rotated, spread } from "./stats.mjs";

const COUNT = Number(process.env.BENCH_CLIENT_MESSAGES ?? 3000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const WINDOW = Number(process.env.BENCH_WINDOW ?? 16);
const STEP_TIMEOUT_MS = 120_000;
const dir = mkdtempSync(join(tmpdir(), "ocp-client-bench-"));
const sender = generateIdentity("a2a://bench-sender");
const recipient = generateIdentity("a2a://bench-recipient");
const wires = () => Array.from({ length: COUNT }, (_, i) => wireFor(sender, recipient, i));

let files = 0;
/** A fresh batch of signed messages in a file the peer reads (every id new: replay checks pass). */
function deliveryFile() {
  const file = join(dir, `deliveries-${files++}.json`);
  writeFileSync(file, JSON.stringify(wires().map((w) => JSON.stringify(w))));
  return file;
}

const peer = spawn(
  process.execPath,
  [fileURLToPath(new URL("./client-peer.mjs", import.meta.url)), recipient.id],
  { stdio: ["ignore", "pipe", "inherit"] },
);
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function until(done) {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  while (!done()) {
    if (Date.now() > deadline) throw new Error("client bench: a round did not finish");
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function windowed(list, send) {
  let next = 0;
  const worker = async () => {
    while (next < list.length) await send(list[next++]);
  };
  await Promise.all(Array.from({ length: WINDOW }, worker));
}

try {
  const line = await new Promise((resolve, reject) => {
    peer.once("exit", (code) => reject(new Error(`client bench: the peer exited (${code})`)));
    createInterface({ input: peer.stdout }).once("line", resolve);
  });
  const [hubUrl, rawUrl] = line.split(" ");
  const producer = await HubClient.connect({ url: hubUrl, identity: sender, reconnect: false });
  const consumer = await HubClient.connect({
    url: hubUrl,
    identity: recipient,
    reconnect: false,
    lookupKey: (id) => (id === sender.id ? sender.publicKey : undefined),
  });
  let delivered = 0;
  consumer.on("message", () => {
    delivered += 1;
  });
  consumer.on("dropped", (d) => {
    throw new Error(`client bench: a delivery was dropped (${d.code})`);
  });
  const raw = new WebSocket(rawUrl, { perMessageDeflate: false });
  await new Promise((resolve, reject) => {
    raw.once("open", resolve);
    raw.once("error", reject);
  });
  const acks = new Map();
  let rawDelivered = 0;
  raw.on("message", (data) => {
    const text = data.toString();
    const delivery = parseDeliver(text);
    if (delivery !== undefined) {
      if (!verifyObject(JSON.parse(delivery.raw), sender.publicKey, nativeEd25519)) {
        throw new Error("client bench: a raw delivery did not verify");
      }
      rawDelivered += 1;
      return;
    }
    const id = JSON.parse(text).payload.id;
    acks.get(id)?.();
    acks.delete(id);
  });

  const arms = {
    "HubClient sender": async () => {
      const list = wires();
      const t = cpuMs();
      await windowed(list, (wire) => producer.send(wire));
      return cpuMs() - t;
    },
    "raw ws sender": async () => {
      const list = wires();
      const t = cpuMs();
      await windowed(
        list,
        (wire) =>
          new Promise((resolve) => {
            acks.set(wire.id, resolve);
            raw.send(JSON.stringify(wire));
          }),
      );
      return cpuMs() - t;
    },
    "HubClient recipient": async () => {
      const file = deliveryFile();
      delivered = 0;
      const t = cpuMs();
      raw.send(`deliverHub ${file}`);
      await until(() => delivered >= COUNT);
      return cpuMs() - t;
    },
    "raw ws recipient": async () => {
      const file = deliveryFile();
      rawDelivered = 0;
      const t = cpuMs();
      raw.send(`deliver ${file}`);
      await until(() => rawDelivered >= COUNT);
      return cpuMs() - t;
    },
  };
  const names = Object.keys(arms);
  const results = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of rotated(names, round)) {
      const us = ((await arms[name]()) * 1000) / COUNT;
      if (round > 0) results[name].push(us);
    }
  }
  const probe = wireFor(sender, recipient, 0);
  const t = performance.now();
  for (let i = 0; i < 2000; i++) verifyObject(probe, sender.publicKey, nativeEd25519);
  const verifyUs = ((performance.now() - t) * 1000) / 2000;
  process.stdout.write(
    `client bench: ${COUNT} messages of ${JSON.stringify(probe).length} bytes per arm and round, ${WINDOW} in flight for senders, ${ROUNDS - 1} rounds after one warm-up (arms interleaved), node ${process.version}, Ed25519 by ${nativeEd25519Library()}, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}\n`,
  );
  process.stdout.write("CPU of this process per message, µs: median (min–max, spread)\n");
  for (const name of names) {
    process.stdout.write(`  ${name.padEnd(22)}${spread(results[name], 1)}\n`);
  }
  for (const role of ["sender", "recipient"]) {
    const ratios = results[`HubClient ${role}`].map((v, i) => v / results[`raw ws ${role}`][i]);
    const extra = median(results[`HubClient ${role}`]) - median(results[`raw ws ${role}`]);
    process.stdout.write(
      `HubClient ${role} / raw ws ${role}: ${spread(ratios, 2)} (paired per round), ${extra.toFixed(1)} µs more per message\n`,
    );
  }
  process.stdout.write(
    `one signature check alone (canonical form and Ed25519): ${verifyUs.toFixed(1)} µs\n`,
  );
  await producer.close();
  await consumer.close();
  raw.close();
} finally {
  peer.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
}
