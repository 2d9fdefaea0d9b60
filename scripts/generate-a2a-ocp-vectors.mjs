#!/usr/bin/env node
// Writes the a2a+ocp test vectors in examples/a2a-ocp/vectors/ from
// docs/a2a-ocp-wire.md alone: node:crypto and a JCS writer of its own, no
// import from this repository's packages, so the vectors are a second
// implementation that the packages' tests check themselves against.
// Every input is fixed (keys from SHA-256 of a label, fixed IVs and
// timestamps), so the output is the same on every run.
// Usage: node scripts/generate-a2a-ocp-vectors.mjs [--check]
//   --check: exit 1 when a committed vector differs from what this writes.
import {
  createCipheriv,
  createHash,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  hkdfSync,
  sign,
} from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const dir = join(root, "examples", "a2a-ocp", "vectors");
const check = process.argv.includes("--check");

const sha256 = (bytes) => createHash("sha256").update(bytes).digest();
const seed = (label) => sha256(Buffer.from(`a2a+ocp test vector: ${label}`, "utf8"));
const hex = (bytes) => Buffer.from(bytes).toString("hex");
const b64 = (bytes) => Buffer.from(bytes).toString("base64");

/** RFC 8785 for the plain JSON values written here (no index-like member names). */
function jcs(value) {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(jcs).join(",")}]`;
  const names = Object.keys(value)
    .filter((k) => value[k] !== undefined)
    .sort();
  return `{${names.map((k) => `${JSON.stringify(k)}:${jcs(value[k])}`).join(",")}}`;
}

// RFC 8410 DER wrappers of raw 32-byte keys.
const ED25519_PKCS8 = Buffer.from("302e020100300506032b657004220420", "hex");
const X25519_PKCS8 = Buffer.from("302e020100300506032b656e04220420", "hex");
const X25519_SPKI = Buffer.from("302a300506032b656e032100", "hex");
const secretKeyOf = (prefix, raw) =>
  createPrivateKey({ key: Buffer.concat([prefix, raw]), format: "der", type: "pkcs8" });
const rawPublicOf = (privateKey) =>
  createPublicKey(privateKey).export({ format: "der", type: "spki" }).subarray(-32);

function ed25519(label) {
  const secret = seed(label);
  const key = secretKeyOf(ED25519_PKCS8, secret);
  return { secret, key, publicKey: rawPublicOf(key) };
}

function signMessage(message, key) {
  const { signature: _drop, ...unsigned } = message;
  const input = jcs(unsigned);
  const signature = b64(sign(null, Buffer.from(input, "utf8"), key));
  return { input, signature, signed: { ...unsigned, signature } };
}

const ALICE = "a2a://vectors-alice";
const BOB = "a2a://vectors-bob";
const CAROL = "a2a://vectors-carol";
const alice = ed25519("alice ed25519");

// 1. A signed message.
const node = {
  id: "node-vector-1",
  type: "code.solution",
  title: "Close idle WebSocket connections",
  data: { code: "ws.on('close', () => connections.delete(id));", tested: true },
  confidence: 0.92,
  timestamp: "2026-11-30T12:00:00.000Z",
  createdBy: ALICE,
  tags: ["websocket", "é-ü-€-𝄞"],
};
const streamMessage = {
  protocol: "a2a+ocp",
  version: "1.0.0",
  id: "0b8f6c1e-4d5a-4f7b-9c3e-2a1d5e6f7a8b",
  from: ALICE,
  to: BOB,
  timestamp: "2026-11-30T12:00:00.000Z",
  type: "ocp.knowledge.stream",
  ttl: 86400,
  payload: { streamId: "stream-1", nodes: [node], isIncremental: false, sequenceNumber: 1 },
};
const signedStream = signMessage(streamMessage, alice.key);
const signing = {
  description:
    "A message signed as docs/a2a-ocp-wire.md#signature-scheme says: Ed25519 over the RFC 8785 canonical JSON of the whole message minus `signature`. The secret key is the 32-byte RFC 8032 seed.",
  ed25519: {
    secretKeyHex: hex(alice.secret),
    publicKeyHex: hex(alice.publicKey),
    publicKeyBase64: b64(alice.publicKey),
  },
  signingInput: signedStream.input,
  signingInputSha256Hex: hex(sha256(Buffer.from(signedStream.input, "utf8"))),
  signature: signedStream.signature,
  message: signedStream.signed,
};

// 2. An encrypted message for two recipients (docs/a2a-ocp-wire.md, §8.4).
const recipients = [BOB, CAROL].map((agentId) => {
  const secret = seed(`${agentId} x25519`);
  const key = secretKeyOf(X25519_PKCS8, secret);
  return { agentId, secret, key, publicKey: rawPublicOf(key) };
});
const contentKey = seed("content key");
const iv = seed("payload iv").subarray(0, 12);
const ephemeralSecret = seed("ephemeral x25519");
const ephemeral = secretKeyOf(X25519_PKCS8, ephemeralSecret);
const ephemeralPublic = rawPublicOf(ephemeral);
const gcm = (key, nonce, plaintext, aad) => {
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  if (aad !== undefined) cipher.setAAD(aad);
  return Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
};
const plainPayload = {
  proposalId: "prop-vector-1",
  topic: "Adopt the connection reaper",
  proposal: { change: "Close connections idle for 5 minutes.", rollback: true },
  votingPeriod: 3600,
  requiredVotes: 2,
  votingRule: "majority",
};
const envelope = {
  protocol: "a2a+ocp",
  version: "1.0.0",
  id: "6a0d2c4e-8b1f-4e3a-a5c7-9d2e4f6a8b0c",
  from: ALICE,
  to: [BOB, CAROL],
  timestamp: "2026-11-30T12:05:00.000Z",
  type: "ocp.consensus.propose",
  ttl: 3900,
};
const associatedData = jcs({
  protocol: envelope.protocol,
  id: envelope.id,
  from: envelope.from,
  type: envelope.type,
});
const payloadJcs = jcs(plainPayload);
const sealed = gcm(contentKey, iv, Buffer.from(payloadJcs, "utf8"), Buffer.from(associatedData));
const wraps = recipients.map((r) => {
  const shared = diffieHellman({
    privateKey: ephemeral,
    publicKey: createPublicKey({
      key: Buffer.concat([X25519_SPKI, r.publicKey]),
      format: "der",
      type: "spki",
    }),
  });
  const salt = Buffer.concat([ephemeralPublic, r.publicKey]);
  const kek = Buffer.from(
    hkdfSync("sha256", shared, salt, Buffer.from(`a2a+ocp/1 key-wrap ${r.agentId}`, "utf8"), 32),
  );
  const wrapIv = seed(`${r.agentId} wrap iv`).subarray(0, 12);
  const wrapped = gcm(kek, wrapIv, contentKey);
  return {
    agentId: r.agentId,
    x25519SecretKeyHex: hex(r.secret),
    x25519PublicKeyHex: hex(r.publicKey),
    sharedSecretHex: hex(shared),
    keyEncryptionKeyHex: hex(kek),
    wrapIvHex: hex(wrapIv),
    encryptedKey: b64(Buffer.concat([ephemeralPublic, wrapIv, wrapped])),
  };
});
const encryptedMessage = {
  ...envelope,
  encrypted: true,
  payload: {
    ciphertext: b64(Buffer.concat([iv, sealed])),
    algorithm: "AES-256-GCM",
    recipientKeys: wraps.map(({ agentId, encryptedKey }) => ({ agentId, encryptedKey })),
  },
};
const signedEncrypted = signMessage(encryptedMessage, alice.key);
const encryption = {
  description:
    "A message encrypted for two recipients as docs/a2a-ocp-wire.md#encryption says (AES-256-GCM payload, content key wrapped per recipient with X25519 + HKDF-SHA256 + AES-256-GCM), then signed by the sender (the key of signing.json). Every random input is given so each step can be checked.",
  senderPublicKeyHex: hex(alice.publicKey),
  plaintextPayload: plainPayload,
  plaintextCanonical: payloadJcs,
  associatedData,
  contentKeyHex: hex(contentKey),
  ivHex: hex(iv),
  ephemeralX25519SecretKeyHex: hex(ephemeralSecret),
  ephemeralX25519PublicKeyHex: hex(ephemeralPublic),
  recipients: wraps,
  message: signedEncrypted.signed,
};

// 3. A knowledge sync page checksum.
const page = {
  nodes: [node, { ...node, id: "node-vector-2", title: "Reap idle sockets", tags: [] }],
  edges: [
    {
      id: "edge-vector-1",
      source: "node-vector-1",
      target: "node-vector-2",
      relationship: "refines",
      weight: 0.75,
    },
  ],
};
const pageCanonical = jcs({ nodes: page.nodes, edges: page.edges });
const checksum = {
  description:
    "The checksum of a knowledge sync page (docs/a2a-ocp-wire.md#checksum-formula): lowercase hex SHA-256 of the RFC 8785 bytes of {edges, nodes}.",
  nodes: page.nodes,
  edges: page.edges,
  canonical: pageCanonical,
  checksum: hex(sha256(Buffer.from(pageCanonical, "utf8"))),
};

const files = { "signing.json": signing, "encryption.json": encryption, "checksum.json": checksum };
let stale = 0;
mkdirSync(dir, { recursive: true });
for (const [name, value] of Object.entries(files)) {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  const path = join(dir, name);
  if (check) {
    let current = "";
    try {
      current = readFileSync(path, "utf8");
    } catch {}
    if (current !== text) {
      stale++;
      console.error(`examples/a2a-ocp/vectors/${name} differs from what the generator writes`);
    }
  } else writeFileSync(path, text);
}
if (check && stale > 0) process.exit(1);
console.log(`${check ? "checked" : "wrote"} ${Object.keys(files).length} vectors`);
