// The agents of one producer→consumer pair of the cluster bench, in a worker
// thread of their own (BENCH_AGENTS=threads): an agent in a deployment has its
// own event loop, where the default harness runs every pair's agents on the
// bench's one thread. The same wires and the same window as the default
// harness; the main thread starts a round, this thread sends, counts arrivals
// and reports the send → receipt latencies.
//
// kind: "hub", "core", "jetstream" or "jscrypto" (JetStream with the two Ed25519 checks).
// Messages from the main thread: {cmd: "prepare", count} (signs the round's
// wires, answers "prepared"), {cmd: "go"} (sends them WINDOW in flight, answers
// {done, latencies} once every one arrived), {cmd: "close"}.
import { parentPort, workerData } from "node:worker_threads";
import { jetstream } from "@nats-io/jetstream";
import { connect, headers as natsHeadersOf } from "@nats-io/transport-node";
import { HubClient } from "@ocp/a2a-ocp-client";
import { generateIdentity, verifyObject } from "@ocp/a2a-ocp-messaging";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { wireFor } from "./cluster-wire.mjs";

const { kind, label, window: WINDOW } = workerData;
const from = generateIdentity(`a2a://bench-${label}-producer`);
const to = generateIdentity(`a2a://bench-${label}-consumer`);
const enc = new TextEncoder();
const dec = new TextDecoder();
let sentAt = new Map();
let latencies = [];
let expected = 0;
let onAllArrived = () => undefined;
const waiters = new Map();

function arrive(id) {
  const sent = sentAt.get(id);
  if (sent === undefined) return;
  latencies.push(performance.now() - sent);
  sentAt.delete(id);
  waiters.get(id)?.();
  waiters.delete(id);
  if (latencies.length === expected) onAllArrived();
}

let send;
let close;
if (kind === "hub") {
  const producer = await HubClient.connect({ url: workerData.producerUrl, identity: from });
  const consumer = await HubClient.connect({ url: workerData.consumerUrl, identity: to });
  consumer.on("message", (m) => arrive(m.wire.id));
  send = (wire) => producer.send(wire);
  close = async () => {
    await producer.close();
    await consumer.close();
  };
} else {
  const nc = await connect({ servers: workerData.natsUrl });
  const js = jetstream(nc);
  // "jscrypto": the recipient parses and checks the signature before counting,
  // and the producer side checks it before publishing (the accepting hub's check).
  nc.subscribe(workerData.subject, {
    callback:
      kind === "jscrypto"
        ? (_error, msg) => {
            const wire = JSON.parse(dec.decode(msg.data));
            if (!verifyObject(wire, from.publicKey, nativeEd25519)) {
              throw new Error("a received message does not verify");
            }
            arrive(wire.id);
          }
        : (_error, msg) => arrive(msg.headers?.get("Nats-Msg-Id")),
  });
  await nc.flush();
  const publish = (wire) =>
    js.publish(workerData.subject, enc.encode(JSON.stringify(wire)), { msgID: wire.id });
  send =
    kind === "jscrypto"
      ? (wire) =>
          verifyObject(wire, from.publicKey, nativeEd25519)
            ? publish(wire)
            : Promise.reject(new Error("a message to publish does not verify"))
      : kind === "jetstream"
        ? (wire) =>
            js.publish(workerData.subject, enc.encode(JSON.stringify(wire)), { msgID: wire.id })
        : (wire) => {
            // Core NATS has no ack: a message is in flight until the subscriber has it.
            const arrived = new Promise((resolve) => waiters.set(wire.id, resolve));
            const h = natsHeadersOf();
            h.set("Nats-Msg-Id", wire.id);
            nc.publish(workerData.subject, enc.encode(JSON.stringify(wire)), { headers: h });
            return arrived;
          };
  close = () => nc.drain();
}

let wires = [];
parentPort.on("message", async (message) => {
  if (message.cmd === "prepare") {
    wires = Array.from({ length: message.count }, (_, i) => wireFor(from, to, i));
    parentPort.postMessage({ prepared: true });
  } else if (message.cmd === "go") {
    sentAt = new Map();
    latencies = [];
    expected = wires.length;
    const arrived = new Promise((resolve) => {
      onAllArrived = resolve;
    });
    let next = 0;
    const worker = async () => {
      while (next < wires.length) {
        const wire = wires[next++];
        sentAt.set(wire.id, performance.now());
        await send(wire);
      }
    };
    await Promise.all(Array.from({ length: WINDOW }, worker));
    await arrived;
    parentPort.postMessage({ done: true, latencies });
  } else if (message.cmd === "close") {
    await close();
    parentPort.postMessage({ closed: true });
  }
});
parentPort.postMessage({ ready: true });
