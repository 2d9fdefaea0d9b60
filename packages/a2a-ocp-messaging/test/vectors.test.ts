import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { canonicalize, signObject, verifyObject } from "../src/index.js";
import { ed25519PublicKey, signingInput } from "../src/internal.js";
import { decryptMessage } from "../src/node/index.js";

// The vectors of docs/a2a-ocp-wire.md, written by a generator that shares no code with this
// package (scripts/generate-a2a-ocp-vectors.mjs): our canonical form, signatures and decryption
// must agree with it byte for byte.
const root = new URL("../../../", import.meta.url);
const vector = (name: string) =>
  JSON.parse(readFileSync(new URL(`examples/a2a-ocp/vectors/${name}`, root), "utf8"));
const fromHex = (text: string) => new Uint8Array(Buffer.from(text, "hex"));

describe("a2a+ocp test vectors (examples/a2a-ocp/vectors)", () => {
  it("are what the generator writes today", () => {
    const script = new URL("scripts/generate-a2a-ocp-vectors.mjs", root);
    expect(() =>
      execFileSync(process.execPath, [script.pathname, "--check"], { stdio: "pipe" }),
    ).not.toThrow();
  });

  it("signing.json: same public key, signing input, signature; the message verifies", () => {
    const v = vector("signing.json");
    const secretKey = fromHex(v.ed25519.secretKeyHex);
    expect(Buffer.from(ed25519PublicKey(secretKey)).toString("hex")).toBe(v.ed25519.publicKeyHex);
    expect(new TextDecoder().decode(signingInput(v.message))).toBe(v.signingInput);
    const { signature: _s, ...unsigned } = v.message;
    expect(canonicalize(unsigned)).toBe(v.signingInput);
    // Ed25519 is deterministic: signing the same bytes gives the vector's signature.
    expect(signObject(unsigned, secretKey).signature).toBe(v.signature);
    expect(verifyObject(v.message, fromHex(v.ed25519.publicKeyHex))).toBe(true);
    // One changed character of the payload and it no longer verifies.
    const tampered = structuredClone(v.message);
    tampered.payload.nodes[0].title += ".";
    expect(verifyObject(tampered, fromHex(v.ed25519.publicKeyHex))).toBe(false);
  });

  it("encryption.json: each recipient decrypts the vector's payload; a non-recipient cannot", () => {
    const v = vector("encryption.json");
    expect(verifyObject(v.message, fromHex(v.senderPublicKeyHex))).toBe(true);
    for (const r of v.recipients) {
      const plain = decryptMessage(v.message, {
        agentId: r.agentId,
        secretKey: fromHex(r.x25519SecretKeyHex),
      });
      expect(plain.ok).toBe(true);
      if (plain.ok) {
        expect(plain.value.payload).toEqual(v.plaintextPayload);
        expect(canonicalize(plain.value.payload)).toBe(v.plaintextCanonical);
      }
    }
    const { message } = v;
    expect(
      canonicalize({
        protocol: message.protocol,
        id: message.id,
        from: message.from,
        type: message.type,
      }),
    ).toBe(v.associatedData);
    // The right key under another agent's name does not unwrap (the agent id is in the HKDF info).
    const wrongName = decryptMessage(v.message, {
      agentId: v.recipients[1].agentId,
      secretKey: fromHex(v.recipients[0].x25519SecretKeyHex),
    });
    expect(wrongName.ok).toBe(false);
    // The ciphertext moved under another message id fails authentication.
    const moved = { ...v.message, id: "7b1e3d5f-9c2a-4b4c-b6d8-0e3f5a7b9c1d" };
    expect(
      decryptMessage(moved, {
        agentId: v.recipients[0].agentId,
        secretKey: fromHex(v.recipients[0].x25519SecretKeyHex),
      }).ok,
    ).toBe(false);
  });
});
