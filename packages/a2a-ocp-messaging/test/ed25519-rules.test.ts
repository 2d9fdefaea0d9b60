import { createHash, createPublicKey, verify as opensslVerify } from "node:crypto";
import * as ed from "@noble/ed25519";
import { describe, expect, it } from "vitest";
import { SMALL_ORDER_Y } from "../src/ed25519-rules.js";
import { createAgentProfile, generateIdentity, verifyAgentProfile } from "../src/index.js";
import { ed25519EncodingsAcceptable, nobleEd25519 } from "../src/internal.js";
import { nativeEd25519, nativeEd25519Library } from "../src/node/index.js";
import { ALL_BACKENDS, SODIUM } from "./support/backends.js";

/**
 * The encoding rules every backend applies before verifying (see
 * src/ed25519-rules.ts), against signatures crafted to exploit where Ed25519
 * libraries differ. The points are derived here from noble's curve
 * arithmetic, not copied from the module under test.
 */

const BACKENDS = ALL_BACKENDS;

const p = 2n ** 255n - 19n;
const L = 2n ** 252n + 27742317777372353535851937790883648493n;
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const le = (bytes: Uint8Array) => {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]!);
  return n;
};
const toLe = (value: bigint) => {
  const out = new Uint8Array(32);
  for (let i = 0, n = value; i < 32; i++, n >>= 8n) out[i] = Number(n & 255n);
  return out;
};
const concat = (r: Uint8Array, s: Uint8Array) => {
  const out = new Uint8Array(64);
  out.set(r);
  out.set(s, 32);
  return out;
};
const withSignBit = (point: Uint8Array) => {
  const out = new Uint8Array(point);
  out[31]! |= 0x80;
  return out;
};
const message = new TextEncoder().encode("transfer everything to mallory");

/** `node:crypto` with no rule in front of it: what the OpenSSL backend would accept without them. */
function bareOpenssl(signature: Uint8Array, publicKey: Uint8Array): boolean {
  const spki = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), publicKey]);
  const key = createPublicKey({ key: spki, format: "der", type: "spki" });
  return opensslVerify(null, message, key, signature);
}

/** The eight points of small order: [L]Q of points Q of the curve (whose order divides 8L). */
function torsionPoints(): ed.Point[] {
  const found = new Map<string, ed.Point>();
  for (let i = 0; found.size < 8 && i < 2000; i++) {
    const bytes = new Uint8Array(32);
    bytes[0] = i & 0xff;
    bytes[1] = i >> 8;
    bytes[2] = 9;
    let q: ed.Point;
    try {
      q = ed.Point.fromBytes(bytes);
    } catch {
      continue; // not a point
    }
    const t = q.multiplyUnsafe(L - 1n).add(q);
    found.set(hex(t.toBytes()), t);
  }
  return [...found.values()];
}
const torsion = torsionPoints();

describe("the shared Ed25519 encoding rules: every backend refuses the same crafted signatures", () => {
  it("the small-order list is the curve's eight points of small order, sign bit cleared", () => {
    expect(torsion).toHaveLength(8);
    const derived = new Set(
      torsion.map((t) => {
        const bytes = t.toBytes();
        bytes[31]! &= 0x7f;
        return hex(bytes);
      }),
    );
    expect(new Set(SMALL_ORDER_Y.map(hex))).toEqual(derived);
  });

  it(`libsodium is the native verifier on linux x64 (${nativeEd25519Library()} here)`, () => {
    // sodium-native ships a prebuilt library for this platform: CI runs here, so it must load.
    if (process.platform !== "linux" || process.arch !== "x64") return;
    expect(nativeEd25519Library()).toBe("libsodium");
    expect(SODIUM?.name).toBe("libsodium");
  });

  it("a key of small order signs nothing: 'identity, S = 0' verifies any message under bare OpenSSL, under no backend", () => {
    const identity = toLe(1n);
    const forged = concat(identity, toLe(0n));
    // Anyone can make this signature, for any message: this is why the rules exist.
    expect(bareOpenssl(forged, identity)).toBe(true);
    for (const backend of BACKENDS) {
      expect(backend.verify(forged, message, identity), backend.name).toBe(false);
    }
    // Every point of small order as the key, in both sign-bit spellings, with R = identity or R = the key.
    for (const t of torsion) {
      for (const key of [t.toBytes(), withSignBit(t.toBytes())]) {
        expect(ed25519EncodingsAcceptable(concat(identity, toLe(0n)), key)).toBe(false);
        for (const backend of BACKENDS) {
          expect(backend.verify(concat(identity, toLe(0n)), message, key), backend.name).toBe(
            false,
          );
          expect(backend.verify(concat(key, toLe(0n)), message, key), backend.name).toBe(false);
        }
      }
    }
  });

  it("a profile whose key has small order is refused (its self-signature is the forgery above)", () => {
    const real = createAgentProfile(generateIdentity("a2a://mallory"), {}, nativeEd25519);
    const forged = {
      ...real,
      publicKey: Buffer.from(toLe(1n)).toString("base64"),
      signature: Buffer.from(concat(toLe(1n), toLe(0n))).toString("base64"),
    };
    for (const backend of BACKENDS) {
      expect(verifyAgentProfile(forged, backend).ok, backend.name).toBe(false);
    }
  });

  it("R of small order, made by the key's holder (S = k·a), verifies under bare OpenSSL, under no backend", () => {
    const secret = ed.utils.randomSecretKey();
    const { scalar, pointBytes: publicKey } = ed.utils.getExtendedPublicKey(secret);
    const r = toLe(1n); // the identity point
    const k =
      le(
        new Uint8Array(createHash("sha512").update(r).update(publicKey).update(message).digest()),
      ) % L;
    const crafted = concat(r, toLe((k * scalar) % L));
    expect(bareOpenssl(crafted, publicKey)).toBe(true);
    for (const backend of BACKENDS) {
      expect(backend.verify(crafted, message, publicKey), backend.name).toBe(false);
    }
  });

  it("S not below L, a non-canonical key, and R moved by a point of small order are refused everywhere", () => {
    const secret = ed.utils.randomSecretKey();
    const publicKey = ed.getPublicKey(secret);
    const good = nobleEd25519.sign(message, secret);
    for (const backend of BACKENDS) expect(backend.verify(good, message, publicKey)).toBe(true);
    // S + L: the same scalar mod L, a malleated signature.
    const malleated = concat(good.subarray(0, 32), toLe(le(good.subarray(32)) + L));
    // The identity point spelled y = p + 1, with the forgery of the first case.
    const nonCanonicalKey = toLe(p + 1n);
    const forgedForIt = concat(toLe(1n), toLe(0n));
    expect(ed25519EncodingsAcceptable(malleated, publicKey)).toBe(false);
    expect(ed25519EncodingsAcceptable(forgedForIt, nonCanonicalKey)).toBe(false);
    const r = ed.Point.fromBytes(good.subarray(0, 32));
    for (const backend of BACKENDS) {
      expect(backend.verify(malleated, message, publicKey), backend.name).toBe(false);
      expect(backend.verify(forgedForIt, message, nonCanonicalKey), backend.name).toBe(false);
      for (const t of torsion) {
        if (t.equals(ed.Point.ZERO)) continue;
        const moved = concat(r.add(t).toBytes(), good.subarray(32));
        expect(backend.verify(moved, message, publicKey), backend.name).toBe(false);
      }
    }
  });

  it("at the limits: S = L - 1 and a key with y = p - 2 pass the rules; S = L and y = p do not", () => {
    const anyR = ed.getPublicKey(ed.utils.randomSecretKey());
    const key = ed.getPublicKey(ed.utils.randomSecretKey());
    expect(ed25519EncodingsAcceptable(concat(anyR, toLe(L - 1n)), key)).toBe(true);
    expect(ed25519EncodingsAcceptable(concat(anyR, toLe(L)), key)).toBe(false);
    expect(ed25519EncodingsAcceptable(concat(anyR, toLe(0n)), toLe(p - 2n))).toBe(true);
    expect(ed25519EncodingsAcceptable(concat(anyR, toLe(0n)), toLe(p))).toBe(false);
    expect(ed25519EncodingsAcceptable(concat(toLe(p), toLe(0n)), key)).toBe(false);
    expect(ed25519EncodingsAcceptable(new Uint8Array(63), key)).toBe(false);
    expect(ed25519EncodingsAcceptable(concat(anyR, toLe(0n)), key.subarray(1))).toBe(false);
  });
});
