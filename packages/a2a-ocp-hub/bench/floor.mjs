// The cluster bench's floor: the CPU every durable message through hubs must
// cost whatever the hub does — the two Ed25519 verifications §8.3 requires
// (the accepting hub, which must not store or route a forgery, and the
// recipient) and the JetStream publish+ack that makes it durable, as measured
// in the same run — and the share of JetStream that this floor allows on the
// machine's cores.
import { availableParallelism } from "node:os";
import { verifyObject } from "@ocp/a2a-ocp-messaging";
import { nativeEd25519, nativeEd25519Library } from "@ocp/a2a-ocp-messaging/node";
import { median } from "./stats.mjs";

/** Median µs of one `verifyObject` of `wire` (the hub's and the recipient's check), over batches. */
export function verifyMicros(wire, publicKey, batches = 15, perBatch = 200) {
  const samples = [];
  for (let b = 0; b < batches; b++) {
    const start = performance.now();
    for (let i = 0; i < perBatch; i++) {
      if (!verifyObject(wire, publicKey, nativeEd25519))
        throw new Error("bench wire does not verify");
    }
    samples.push(((performance.now() - start) * 1000) / perBatch);
  }
  return median(samples);
}

/**
 * The floor line: `verifyUs` per verification, the JetStream arm's CPU per
 * message (bench process + nats-server) and rate, and the three-hub path's CPU per message.
 */
export function floorLine({ verifyUs, jetstreamCpuUs, jetstreamRate, threeCpuUs }) {
  const cores = availableParallelism();
  const floorUs = 2 * verifyUs + jetstreamCpuUs;
  const maxRate = (cores * 1e6) / floorUs;
  const ceiling = maxRate / jetstreamRate;
  const lines = [
    `floor per durable message: 2 Ed25519 verifications (accepting hub and recipient, §8.3; ${nativeEd25519Library()}) 2 × ${verifyUs.toFixed(0)} µs + one JetStream publish+ack ${jetstreamCpuUs.toFixed(0)} µs = ${floorUs.toFixed(0)} µs of CPU`,
    `  → at most ${Math.round(maxRate)} msg/s on ${cores} cores with no WebSocket, routing or client work at all = ${ceiling.toFixed(2)} of JetStream publish+ack`,
  ];
  if (threeCpuUs !== undefined) {
    lines.push(
      `  the three-hub path costs ${threeCpuUs.toFixed(0)} µs per message: ${(threeCpuUs / floorUs).toFixed(2)}× the floor; ${(threeCpuUs - floorUs).toFixed(0)} µs above it`,
    );
  }
  return `${lines.join("\n")}\n`;
}
