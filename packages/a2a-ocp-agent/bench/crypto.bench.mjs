// pnpm bench: the agent's send and receive path (createMessage + signObject
// with the package's default Ed25519, verifyMessage with a key lookup — what
// OCPAgent and its links run for every message) beside raw node:crypto
// Ed25519 sign and verify of the same canonical bytes with prepared keys.
// Arms are interleaved over rounds; medians and spread are printed. Goal
// (issue 15): ours / raw >= 0.8 on both paths. Building the message
// (createMessage, which validates it) is reported beside it.
import { createPrivateKey, createPublicKey, sign, verify } from "node:crypto";
import { loadavg } from "node:os";
import { createMessage, generateIdentity, signObject, verifyMessage } from "@ocp/a2a-ocp-messaging";
import { canonicalBytes, defaultEd25519, signingInput } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519Library } from "@ocp/a2a-ocp-messaging/node";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const PER_ROUND = Number(process.env.BENCH_MESSAGES ?? 1500);
const alice = generateIdentity("a2a://bench-alice");
const lookupKey = (id) => (id === alice.id ? alice.publicKey : undefined);

const payload = (i) => ({
  streamId: "s",
  nodes: [
    {
      id: `node-${i}`,
      type: "code.solution",
      title: "WebSocket memory leak fix",
      data: { code: "ws.on('close', () => { connections.delete(id); })", tested: true },
      confidence: 0.92,
      timestamp: "2026-01-01T00:00:00Z",
      createdBy: alice.id,
      tags: ["websocket", "fix"],
    },
  ],
  isIncremental: true,
  sequenceNumber: i,
});
const init = (i) => ({
  type: "ocp.knowledge.stream",
  from: alice.id,
  to: "a2a://bench-bob",
  payload: payload(i),
});

// Raw arm: the same canonical bytes, node:crypto with KeyObjects prepared once.
const SPKI = Buffer.from("302a300506032b6570032100", "hex");
const PKCS8 = Buffer.from("302e020100300506032b657004220420", "hex");
const privateKey = createPrivateKey({
  key: Buffer.concat([PKCS8, alice.secretKey]),
  format: "der",
  type: "pkcs8",
});
const publicKey = createPublicKey({
  key: Buffer.concat([SPKI, alice.publicKey]),
  format: "der",
  type: "spki",
});
const messages = Array.from({ length: PER_ROUND }, (_, i) => createMessage(init(i)));
const inputs = messages.map((m) => canonicalBytes(m));
const signedOurs = messages.map((m) => signObject(m, alice.secretKey));
const rawSignatures = inputs.map((bytes) => sign(null, bytes, privateKey));

const arms = {
  "send: ours (signObject)": () => {
    for (let i = 0; i < PER_ROUND; i++) signObject(messages[i], alice.secretKey);
  },
  "send: ours (createMessage + signObject)": () => {
    for (let i = 0; i < PER_ROUND; i++) signObject(createMessage(init(i)), alice.secretKey);
  },
  "send: raw node:crypto sign": () => {
    for (let i = 0; i < PER_ROUND; i++) sign(null, inputs[i], privateKey);
  },
  "receive: ours (verifyMessage)": async () => {
    for (let i = 0; i < PER_ROUND; i++) {
      const verified = await verifyMessage(signedOurs[i], lookupKey);
      if (!verified.ok) throw new Error("a signature did not verify");
    }
  },
  "receive: raw node:crypto verify": () => {
    for (let i = 0; i < PER_ROUND; i++) {
      if (!verify(null, inputs[i], publicKey, rawSignatures[i]))
        throw new Error("raw verify failed");
    }
  },
};

// The signing input is the canonical form without the signature: the same bytes on both sides.
if (Buffer.compare(Buffer.from(signingInput(signedOurs[0])), inputs[0]) !== 0) {
  throw new Error("the raw arm does not sign the bytes ours signs");
}

const samples = Object.fromEntries(Object.keys(arms).map((name) => [name, []]));
for (const arm of Object.values(arms)) await arm(); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, arm] of Object.entries(arms)) {
    const start = process.hrtime.bigint();
    await arm();
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    samples[name].push(PER_ROUND / seconds);
  }
}

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
const fmt = (n) => Math.round(n).toLocaleString("en-US");
console.log(
  `agent crypto path: default backend ${defaultEd25519().name} (${nativeEd25519Library()}), ${ROUNDS} rounds x ${PER_ROUND} messages, load ${loadavg()[0].toFixed(1)}`,
);
for (const [name, xs] of Object.entries(samples)) {
  const s = sorted(xs);
  console.log(
    `  ${name.padEnd(40)} median ${fmt(median(xs)).padStart(9)}/s  (min ${fmt(s[0])}, max ${fmt(s.at(-1))})`,
  );
}
// The ratio of the medians, as the table measures; beside it the range of the per-round
// ratios (arms run back to back within a round), which shows how much the load moved.
const ratio = (a, b) => {
  const paired = sorted(samples[a].map((x, i) => x / samples[b][i]));
  return `${(median(samples[a]) / median(samples[b])).toFixed(2)} (per round ${paired[0].toFixed(2)}–${paired.at(-1).toFixed(2)})`;
};
const SIGN = "send: ours (signObject)";
const BUILD = "send: ours (createMessage + signObject)";
const RAW_SIGN = "send: raw node:crypto sign";
const VERIFY = "receive: ours (verifyMessage)";
const RAW_VERIFY = "receive: raw node:crypto verify";
console.log(`  send    ours / raw: ${ratio(SIGN, RAW_SIGN)}, goal >= 0.8`);
console.log(`  receive ours / raw: ${ratio(VERIFY, RAW_VERIFY)}, goal >= 0.8`);
console.log(
  `  send, building the message too, / raw: ${ratio(BUILD, RAW_SIGN)} (createMessage validates it)`,
);
