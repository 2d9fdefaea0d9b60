import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import {
  canonicalize,
  createMessage,
  generateIdentity,
  signObject,
  verifyMessage,
  verifyObject,
} from "../src/index.js";
import {
  ed25519PublicKey,
  SIGNATURE_SCHEME_DOC,
  signingInput,
  specFieldsSigningInput,
} from "../src/internal.js";
import { nativeEd25519 } from "../src/node/index.js";
import { plainMessage } from "./support/arbitraries.js";
import { ALL_BACKENDS } from "./support/backends.js";
import { ALICE, BOB, SAMPLE_PAYLOADS } from "./support/samples.js";

// Property tests here run hundreds of signatures or inflations: a bound per file, not a speed check.
vi.setConfig({ testTimeout: 60_000 });

const hex = (text: string) => new Uint8Array(Buffer.from(text, "hex"));

/** RFC 8032 §7.1 TEST 1, 2, 3 and SHA(abc). */
const RFC8032 = [
  {
    secret: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
    public: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
    message: "",
    signature:
      "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
  },
  {
    secret: "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
    public: "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
    message: "72",
    signature:
      "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
  },
  {
    secret: "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
    public: "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
    message: "af82",
    signature:
      "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a",
  },
];

const BACKENDS = ALL_BACKENDS;
const alice = generateIdentity(ALICE);

describe("Ed25519 backends", () => {
  it("every backend agrees on the RFC 8032 test vectors and on our own envelopes", () => {
    for (const vector of RFC8032) {
      const secret = hex(vector.secret);
      const message = hex(vector.message);
      expect(Buffer.from(ed25519PublicKey(secret)).toString("hex")).toBe(vector.public);
      for (const backend of BACKENDS) {
        expect(Buffer.from(backend.sign(message, secret)).toString("hex"), backend.name).toBe(
          vector.signature,
        );
        expect(
          backend.verify(hex(vector.signature), message, hex(vector.public)),
          backend.name,
        ).toBe(true);
      }
    }
    const envelope = createMessage({
      type: "ocp.knowledge.stream",
      from: ALICE,
      to: BOB,
      payload: SAMPLE_PAYLOADS["ocp.knowledge.stream"],
    });
    const signed = BACKENDS.map((backend) => signObject(envelope, alice.secretKey, backend));
    for (const other of signed) expect(other.signature).toBe(signed[0]!.signature);
    for (const signer of signed) {
      for (const verifier of BACKENDS) {
        expect(verifyObject(JSON.parse(JSON.stringify(signer)), alice.publicKey, verifier)).toBe(
          true,
        );
      }
    }
  });

  it.each(BACKENDS.map((b) => [b.name, b] as const))(
    "%s: a secret-key array rewritten with another seed signs with the new seed, not a cached key",
    (_name, backend) => {
      const [first, second] = [RFC8032[0]!, RFC8032[1]!];
      const secret = hex(first.secret);
      const message = hex("6f6370");
      const before = Buffer.from(backend.sign(message, secret)).toString("hex");
      secret.set(hex(second.secret));
      const after = backend.sign(message, secret);
      expect(Buffer.from(after).toString("hex")).not.toBe(before);
      expect(backend.verify(after, message, hex(second.public))).toBe(true);
      expect(backend.verify(after, message, hex(first.public))).toBe(false);
    },
  );

  it.each(BACKENDS.map((b) => [b.name, b] as const))(
    "%s: verify is false, never a throw, for malformed input",
    (_name, backend) => {
      const vector = RFC8032[1]!;
      const signature = hex(vector.signature);
      expect(backend.verify(signature, hex("73"), hex(vector.public))).toBe(false);
      expect(backend.verify(signature.subarray(1), hex(vector.message), hex(vector.public))).toBe(
        false,
      );
      expect(backend.verify(signature, hex(vector.message), new Uint8Array(31))).toBe(false);
      expect(
        backend.verify(new Uint8Array(64).fill(0xff), hex(vector.message), hex(vector.public)),
      ).toBe(false);
    },
  );
});

describe("message signatures (§8.2, §8.3)", () => {
  it("signs the RFC 8785 form of the whole message minus signature", () => {
    const message = createMessage({
      type: "ocp.sync.accept",
      from: ALICE,
      to: BOB,
      payload: { syncId: "s", accepted: true },
      ttl: 60,
      priority: "high",
    });
    const signed = signObject(message, alice.secretKey);
    const { signature, ...rest } = signed;
    expect(new TextDecoder().decode(signingInput(signed))).toBe(canonicalize(rest));
    for (const field of ["ttl", "version", "priority"])
      expect(canonicalize(rest)).toContain(`"${field}"`);
    expect(signature).toMatch(/^[A-Za-z0-9+/]{86}==$/);
    // Built and signed here, the message goes out in canonical form, signature in its JCS place.
    expect(JSON.stringify(signed)).toBe(canonicalize(signed));
    // Signing a message that carries a signature replaces it, wherever it was.
    const again = signObject({ signature: "old", ...rest }, alice.secretKey);
    expect(again.signature).toBe(signature);
    expect(Object.keys(again).filter((k) => k === "signature")).toHaveLength(1);
  });

  it("a member named __proto__ is signed, sent and verified like any other", () => {
    // As a receiver's JSON.parse gives it: an own member named __proto__.
    const message = {
      ...createMessage({ type: "ocp.custom.note", from: ALICE, to: BOB, payload: { text: "hi" } }),
      payload: JSON.parse('{"__proto__":{"admin":true},"text":"hi"}'),
    };
    const wire = JSON.stringify(signObject(message, alice.secretKey));
    expect(wire).toContain('"__proto__":{"admin":true}');
    const received = JSON.parse(wire);
    expect(verifyObject(received, alice.publicKey)).toBe(true);
    const tampered = JSON.parse(wire.replace('"admin":true', '"admin":false'));
    expect(verifyObject(tampered, alice.publicKey)).toBe(false);
  });

  it("property: any valid message signs and verifies after a JSON round trip, with every backend", () => {
    fc.assert(
      fc.property(plainMessage, (message) => {
        const received = JSON.parse(JSON.stringify(signObject(message, alice.secretKey)));
        return BACKENDS.every((backend) => verifyObject(received, alice.publicKey, backend));
      }),
      { numRuns: 150 },
    );
  });

  it("property: changing, removing or adding any single field makes verification fail", () => {
    const mutation = fc.oneof(
      fc.constant({ kind: "remove" as const }),
      fc.record({
        kind: fc.constant("replace" as const),
        value: fc.jsonValue({ maxDepth: 1, stringUnit: "grapheme" }),
      }),
    );
    fc.assert(
      fc.property(plainMessage, fc.nat(), mutation, (message, pick, change) => {
        const signed = JSON.parse(JSON.stringify(signObject(message, alice.secretKey)));
        const fields = Object.keys(signed).filter((key) => key !== "signature");
        const field = fields[pick % fields.length]!;
        const tampered = { ...signed };
        if (change.kind === "remove") delete tampered[field];
        else {
          fc.pre(canonicalize(change.value) !== canonicalize(signed[field]));
          tampered[field] = change.value;
        }
        const added = { ...signed, acme_injected: true };
        return BACKENDS.every(
          (backend) =>
            !verifyObject(tampered, alice.publicKey, backend) &&
            !verifyObject(added, alice.publicKey, backend),
        );
      }),
      { numRuns: 150 },
    );
  });

  it("property: any byte change in the payload that changes its value makes verification fail", () => {
    const utf8 = new TextDecoder("utf-8", { fatal: true });
    const canonicalOrUndefined = (value: unknown) => {
      try {
        return canonicalize(value);
      } catch {
        return undefined;
      }
    };
    fc.assert(
      fc.property(
        plainMessage,
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (message, index, xor) => {
          const signed = JSON.parse(JSON.stringify(signObject(message, alice.secretKey)));
          const bytes = Buffer.from(JSON.stringify(signed.payload), "utf8");
          bytes[index % bytes.length]! ^= xor;
          let payload: unknown;
          try {
            payload = JSON.parse(utf8.decode(bytes));
          } catch {
            return true; // no longer JSON: the decoder refuses it before any signature check
          }
          fc.pre(canonicalOrUndefined(payload) !== canonicalize(signed.payload));
          const tampered = { ...signed, payload };
          return BACKENDS.every((backend) => !verifyObject(tampered, alice.publicKey, backend));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a signature by another key, or a mangled signature, does not verify", () => {
    const signed = signObject(
      createMessage({
        type: "ocp.event.unsubscribe",
        from: ALICE,
        to: BOB,
        payload: { subscriptionId: "x" },
      }),
      alice.secretKey,
    );
    const mallory = generateIdentity("a2a://mallory");
    for (const backend of BACKENDS) {
      expect(verifyObject(signed, mallory.publicKey, backend)).toBe(false);
      expect(
        verifyObject({ ...signed, signature: `${"A".repeat(86)}==` }, alice.publicKey, backend),
      ).toBe(false);
      expect(verifyObject({ ...signed, signature: "not base64" }, alice.publicKey, backend)).toBe(
        false,
      );
      const { signature: _s, ...unsigned } = signed;
      expect(verifyObject(unsigned, alice.publicKey, backend)).toBe(false);
    }
  });
});

describe("verifyMessage (§8.3, key lookup)", () => {
  it("looks the sender's key up and reports missing, unknown and invalid signatures by code", async () => {
    const message = createMessage({
      type: "ocp.sync.accept",
      from: ALICE,
      to: BOB,
      payload: { syncId: "s", accepted: true },
    });
    const signed = JSON.parse(JSON.stringify(signObject(message, alice.secretKey)));
    const lookup = (id: string) => (id === ALICE ? alice.publicKey : undefined);
    for (const backend of BACKENDS) {
      expect((await verifyMessage(signed, lookup, backend)).ok).toBe(true);
      const { signature: _s, ...unsigned } = signed;
      const codes = [
        await verifyMessage(unsigned, lookup, backend),
        await verifyMessage(signed, () => undefined, backend),
        await verifyMessage(
          signed,
          async () => {
            throw new Error("directory down");
          },
          backend,
        ),
        await verifyMessage({ ...signed, to: ALICE }, lookup, backend),
      ].map((r) => (r.ok ? "ok" : r.error.code));
      expect(codes).toEqual([
        "signature_missing",
        "unknown_sender",
        "unknown_sender",
        "signature_invalid",
      ]);
    }
  });
});

describe("§8.2's JSON.stringify signature", () => {
  it("is refused with signature_scheme_mismatch (base64 or hex), only after ours failed", async () => {
    const alice = generateIdentity(ALICE);
    const message = createMessage({
      type: "ocp.sync.accept",
      from: ALICE,
      to: BOB,
      payload: SAMPLE_PAYLOADS["ocp.sync.accept"],
    }) as unknown as Record<string, unknown>;
    const raw = nativeEd25519.sign(specFieldsSigningInput(message), alice.secretKey);
    const lookup = () => alice.publicKey;
    for (const signature of [
      Buffer.from(raw).toString("base64"),
      Buffer.from(raw).toString("hex"),
    ]) {
      const result = await verifyMessage({ ...message, signature }, lookup);
      expect(!result.ok && result.error.code).toBe("signature_scheme_mismatch");
      expect(!result.ok && result.error.message).toContain(SIGNATURE_SCHEME_DOC);
    }
    expect(new TextDecoder().decode(specFieldsSigningInput(message))).toBe(
      JSON.stringify({
        protocol: message["protocol"],
        id: message["id"],
        from: message["from"],
        to: message["to"],
        type: message["type"],
        timestamp: message["timestamp"],
        payload: message["payload"],
      }),
    );
    expect((await verifyMessage(signObject(message, alice.secretKey), lookup)).ok).toBe(true);
  });
});
