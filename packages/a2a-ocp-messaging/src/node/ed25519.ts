import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from "node:crypto";
import { ed25519EncodingsAcceptable } from "../ed25519-rules.js";
import { NATIVE_KEY_CACHE_MAX_ENTRIES } from "../limits.js";
import type { Ed25519Backend } from "../signing.js";
import { sodiumEd25519 } from "./sodium.js";

/** DER prefixes that wrap a raw 32-byte Ed25519 key as SPKI / PKCS#8 (RFC 8410). */
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
const PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

const publicKeys = new Map<string, KeyObject>();
/**
 * Keyed by the caller's array, so no secret is ever copied into a map key;
 * the seed the key was made from is kept beside it, so a caller that writes
 * another seed into the same array gets a key from the new seed.
 */
const secretKeys = new WeakMap<Uint8Array, { key: KeyObject; seed: Buffer }>();

function publicKeyObject(raw: Uint8Array): KeyObject {
  const id = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString("latin1");
  let key = publicKeys.get(id);
  if (key === undefined) {
    key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: "der", type: "spki" });
    if (publicKeys.size >= NATIVE_KEY_CACHE_MAX_ENTRIES) {
      publicKeys.delete(publicKeys.keys().next().value as string);
    }
    publicKeys.set(id, key);
  }
  return key;
}

function secretKeyObject(raw: Uint8Array): KeyObject {
  const cached = secretKeys.get(raw);
  if (cached?.seed.equals(raw)) return cached.key;
  const key = createPrivateKey({
    key: Buffer.concat([PKCS8_PREFIX, raw]),
    format: "der",
    type: "pkcs8",
  });
  secretKeys.set(raw, { key, seed: Buffer.from(raw) });
  return key;
}

/** How many parsed public keys the OpenSSL backend holds (at most {@link NATIVE_KEY_CACHE_MAX_ENTRIES}). */
export function nativeKeyCacheSize(): number {
  return publicKeys.size;
}

/** Whether this Node has native Ed25519 (OpenSSL); every supported Node does. */
export function hasNativeEd25519(): boolean {
  try {
    publicKeyObject(new Uint8Array(32).fill(1));
    return true;
  } catch {
    return false;
  }
}

/**
 * `node:crypto`'s Ed25519 (OpenSSL, strict RFC 8032) after the shared
 * encoding rules (without them OpenSSL accepts keys of small order). Parsed
 * public keys are cached (bounded by {@link NATIVE_KEY_CACHE_MAX_ENTRIES}).
 */
export const opensslEd25519: Required<Ed25519Backend> = {
  name: "openssl",
  sign(message, secretKey) {
    // A Buffer is a Uint8Array: returned as it is, not copied.
    return sign(null, message, secretKeyObject(secretKey));
  },
  signBase64(message, secretKey) {
    return sign(null, message, secretKeyObject(secretKey)).toString("base64");
  },
  verify(signature, message, publicKey) {
    if (!ed25519EncodingsAcceptable(signature, publicKey)) return false;
    try {
      return verify(null, message, publicKeyObject(publicKey), signature);
    } catch {
      return false;
    }
  },
};

/** The backend {@link nativeEd25519} delegates to: libsodium when it loads, else OpenSSL. */
const chosen = (): Required<Ed25519Backend> => sodiumEd25519() ?? opensslEd25519;

/** The library behind {@link nativeEd25519} in this process. */
export function nativeEd25519Library(): "libsodium" | "openssl" {
  return chosen() === opensslEd25519 ? "openssl" : "libsodium";
}

/**
 * Native Ed25519, the node entry's default: libsodium (the optional peer
 * `sodium-native`; it verifies 1.6 to 2 times as fast as OpenSSL 3.0 on
 * the test machine) where it loads, otherwise `node:crypto`. Both are several
 * times faster than pure JS, and both apply the shared encoding rules, so
 * which one runs never changes what verifies.
 */
export const nativeEd25519: Ed25519Backend = {
  name: "native",
  sign: (message, secretKey) => chosen().sign(message, secretKey),
  signBase64: (message, secretKey) => chosen().signBase64(message, secretKey),
  verify: (signature, message, publicKey) => chosen().verify(signature, message, publicKey),
};
