import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import {
  createMessage,
  decodeMessage,
  type EncryptedMessage,
  InboundPipeline,
  signObject,
} from "../src/index.js";
import {
  createDecryptor,
  decryptMessage,
  encryptMessage,
  generateX25519KeyPair,
  x25519PublicKey,
} from "../src/node/index.js";
import { plainMessage } from "./support/arbitraries.js";
import { harness, NOW } from "./support/pipeline.js";
import { ALICE, BOB, SAMPLE_PAYLOADS } from "./support/samples.js";

// Property tests here run hundreds of signatures or inflations: a bound per file, not a speed check.
vi.setConfig({ testTimeout: 60_000 });

const agents = Array.from({ length: 6 }, (_, i) => ({
  agentId: `a2a://agent-${i}`,
  ...generateX25519KeyPair(),
}));
const recipient = (i: number) => ({ agentId: agents[i]!.agentId, publicKey: agents[i]!.publicKey });
const key = (i: number) => ({ agentId: agents[i]!.agentId, secretKey: agents[i]!.secretKey });

function sample() {
  return createMessage({
    type: "ocp.knowledge.stream",
    from: ALICE,
    to: [agents[0]!.agentId, agents[1]!.agentId],
    payload: SAMPLE_PAYLOADS["ocp.knowledge.stream"],
  });
}

function flipByte(base64: string, index: number): string {
  const bytes = Buffer.from(base64, "base64");
  bytes[index % bytes.length]! ^= 0x01;
  return bytes.toString("base64");
}

describe("end-to-end encryption (§8.4)", () => {
  it("produces the specification's payload shape and a valid wire message", () => {
    const encrypted = encryptMessage(sample(), [recipient(0), recipient(1)]);
    expect(Object.keys(encrypted.payload).sort()).toEqual([
      "algorithm",
      "ciphertext",
      "recipientKeys",
    ]);
    expect(encrypted.payload.algorithm).toBe("AES-256-GCM");
    expect(encrypted.payload.recipientKeys.map((k) => k.agentId)).toEqual([
      agents[0]!.agentId,
      agents[1]!.agentId,
    ]);
    expect(Buffer.from(encrypted.payload.recipientKeys[0]!.encryptedKey, "base64")).toHaveLength(
      92,
    );
    expect(JSON.stringify(encrypted)).not.toContain("WebSocket memory leak fix");
    expect(decodeMessage(JSON.parse(JSON.stringify(encrypted))).ok).toBe(true);
  });

  it("property: encrypt→decrypt round-trips for any recipient set, and fails for a non-recipient", () => {
    fc.assert(
      fc.property(
        plainMessage,
        fc.uniqueArray(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 5 }),
        (message, set) => {
          const encrypted = JSON.parse(
            JSON.stringify(encryptMessage(message, set.map(recipient))),
          ) as EncryptedMessage;
          const { signature: _s, ...expected } = message;
          for (const i of set) {
            const decrypted = decryptMessage(encrypted, key(i));
            if (!decrypted.ok) return false;
            expect(decrypted.value).toEqual(JSON.parse(JSON.stringify(expected)));
          }
          const outsider = [0, 1, 2, 3, 4, 5].find((i) => !set.includes(i));
          if (outsider !== undefined) {
            const refused = decryptMessage(encrypted, key(outsider));
            if (refused.ok || refused.error.code !== "not_a_recipient") return false;
          }
          return true;
        },
      ),
      { numRuns: 60 },
    );
  });

  it("a non-recipient claiming a recipient's id cannot unwrap its key", () => {
    const encrypted = encryptMessage(sample(), [recipient(0)]);
    const result = decryptMessage(encrypted, {
      agentId: agents[0]!.agentId,
      secretKey: agents[1]!.secretKey,
    });
    expect(!result.ok && result.error.code).toBe("decryption_failed");
  });

  it("property: flipping any byte of the ciphertext or a wrapped key is detected", () => {
    const encrypted = encryptMessage(sample(), [recipient(0), recipient(1)]);
    fc.assert(
      fc.property(fc.nat(), fc.boolean(), (index, inKey) => {
        const tampered = structuredClone(encrypted);
        if (inKey)
          tampered.payload.recipientKeys[0]!.encryptedKey = flipByte(
            tampered.payload.recipientKeys[0]!.encryptedKey,
            index,
          );
        else tampered.payload.ciphertext = flipByte(tampered.payload.ciphertext, index);
        const result = decryptMessage(tampered, key(0));
        return !result.ok && result.error.code === "decryption_failed";
      }),
      { numRuns: 200 },
    );
  });

  it("binds the ciphertext to the message: moved to another id, sender or type it does not decrypt", () => {
    const encrypted = encryptMessage(sample(), [recipient(0)]);
    expect(decryptMessage(encrypted, key(0)).ok).toBe(true);
    for (const change of [
      { id: crypto.randomUUID() },
      { from: "a2a://mallory" },
      { type: "ocp.knowledge.sync.response" as const },
    ]) {
      const moved = { ...encrypted, ...change } as EncryptedMessage;
      const result = decryptMessage(moved, key(0));
      expect(!result.ok && result.error.code).toBe("decryption_failed");
    }
  });

  it("the signature covers the ciphertext: the pipeline refuses a tampered one before decrypting", async () => {
    const h = harness();
    const pipeline = new InboundPipeline({
      lookupKey: () => h.alice.publicKey,
      now: h.clock.now,
      decrypt: createDecryptor(key(0)),
    });
    const message = createMessage({
      type: "ocp.knowledge.stream",
      from: ALICE,
      to: agents[0]!.agentId,
      payload: SAMPLE_PAYLOADS["ocp.knowledge.stream"],
      timestamp: new Date(NOW).toISOString(),
    });
    const signed = signObject(encryptMessage(message, [recipient(0)]), h.alice.secretKey);
    const accepted = await pipeline.accept(JSON.stringify(signed));
    expect(accepted.ok && accepted.value.message.payload).toEqual(
      SAMPLE_PAYLOADS["ocp.knowledge.stream"],
    );
    const tampered = {
      ...signed,
      payload: { ...signed.payload, ciphertext: flipByte(signed.payload.ciphertext, 20) },
    };
    const refused = await pipeline.accept(JSON.stringify({ ...tampered, id: crypto.randomUUID() }));
    expect(!refused.ok && refused.error.code).toBe("signature_invalid");
  });

  it("the pipeline returns encrypted messages as they are without a decryptor, and not_a_recipient with someone else's", async () => {
    const h = harness();
    const message = createMessage({
      type: "ocp.sync.accept",
      from: ALICE,
      to: BOB,
      payload: { syncId: "s", accepted: true },
      timestamp: new Date(NOW).toISOString(),
    });
    const signed = JSON.stringify(
      signObject(encryptMessage(message, [recipient(0)]), h.alice.secretKey),
    );
    const plain = await h.pipeline.accept(signed);
    expect(plain.ok && plain.value.message.encrypted).toBe(true);
    const other = new InboundPipeline({
      lookupKey: () => h.alice.publicKey,
      now: h.clock.now,
      decrypt: createDecryptor(key(3)),
    });
    const refused = await other.accept(signed);
    expect(!refused.ok && refused.error.code).toBe("not_a_recipient");
  });

  it("derives the X25519 public key from the secret key and refuses wrong-length keys", () => {
    expect(Buffer.from(x25519PublicKey(agents[2]!.secretKey))).toEqual(
      Buffer.from(agents[2]!.publicKey),
    );
    expect(() =>
      encryptMessage(sample(), [{ agentId: "a2a://x", publicKey: new Uint8Array(31) }]),
    ).toThrow(/32 bytes/);
    expect(() => encryptMessage(sample(), [])).toThrow(/recipients/);
    expect(() => encryptMessage(sample(), [recipient(0), recipient(0)])).toThrow(/once/);
  });
});
