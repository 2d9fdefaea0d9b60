import { createRequire } from "node:module";
import { ed25519EncodingsAcceptable } from "../ed25519-rules.js";
import type { Ed25519Backend } from "../signing.js";

/** The part of `sodium-native` (libsodium) this backend calls. */
interface Sodium {
  crypto_sign_seed_keypair(publicKey: Uint8Array, secretKey: Uint8Array, seed: Uint8Array): void;
  crypto_sign_detached(signature: Uint8Array, message: Uint8Array, secretKey: Uint8Array): void;
  crypto_sign_verify_detached(
    signature: Uint8Array,
    message: Uint8Array,
    publicKey: Uint8Array,
  ): boolean;
}

/** RFC 8032 §7.1 TEST 2: the check a loaded libsodium must pass before it is used. */
const SELF_TEST = {
  seed: "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
  publicKey: "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
  message: "72",
  signature:
    "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
};

function passesSelfTest(sodium: Sodium): boolean {
  const bytes = (hex: string) => new Uint8Array(Buffer.from(hex, "hex"));
  const publicKey = new Uint8Array(32);
  const secretKey = new Uint8Array(64);
  sodium.crypto_sign_seed_keypair(publicKey, secretKey, bytes(SELF_TEST.seed));
  const signature = new Uint8Array(64);
  sodium.crypto_sign_detached(signature, bytes(SELF_TEST.message), secretKey);
  return (
    Buffer.from(publicKey).toString("hex") === SELF_TEST.publicKey &&
    Buffer.from(signature).toString("hex") === SELF_TEST.signature &&
    sodium.crypto_sign_verify_detached(signature, bytes(SELF_TEST.message), publicKey) &&
    !sodium.crypto_sign_verify_detached(signature, bytes("73"), publicKey)
  );
}

/** `undefined` until the first use; then the loaded module, or `null` when it cannot be used. */
let loaded: Sodium | null | undefined;

/**
 * libsodium through the optional dependency `sodium-native`, loaded on first
 * use (about 40 ms) and used only if it loads and passes an RFC 8032 check;
 * `undefined` where it is not installed or has no build for this platform.
 */
function sodium(): Sodium | undefined {
  if (loaded === undefined) {
    try {
      const module = createRequire(import.meta.url)("sodium-native") as Sodium;
      loaded = passesSelfTest(module) ? module : null;
    } catch {
      loaded = null;
    }
  }
  return loaded ?? undefined;
}

/** Expanded secret keys (seed ‖ public key), keyed by the caller's seed array: no secret becomes a map key. */
const expanded = new WeakMap<Uint8Array, Uint8Array>();

/** Whether `secretKey` (seed ‖ public key) was expanded from `seed` as it is now. */
function expandedFrom(secretKey: Uint8Array, seed: Uint8Array): boolean {
  if (seed.length !== 32) return false;
  for (let i = 0; i < 32; i++) if (secretKey[i] !== seed[i]) return false;
  return true;
}

function expandedKey(lib: Sodium, seed: Uint8Array): Uint8Array {
  let secretKey = expanded.get(seed);
  // A caller that wrote another seed into the same array gets a key from the new seed.
  if (secretKey === undefined || !expandedFrom(secretKey, seed)) {
    secretKey = new Uint8Array(64);
    lib.crypto_sign_seed_keypair(new Uint8Array(32), secretKey, seed);
    expanded.set(seed, secretKey);
  }
  return secretKey;
}

/** Made once, on the first call that finds libsodium. */
let backend: Required<Ed25519Backend> | undefined;

/**
 * The libsodium backend, or `undefined` where libsodium cannot be loaded. On
 * this package's test machine (2 cores, OpenSSL 3.0) it verifies in about
 * 100–120 µs where `node:crypto` takes 150–190, and it refuses what the
 * shared encoding rules refuse, like every backend.
 */
export function sodiumEd25519(): Required<Ed25519Backend> | undefined {
  const lib = sodium();
  if (lib === undefined) return undefined;
  backend ??= {
    name: "libsodium",
    sign(message, secretKey) {
      const signature = new Uint8Array(64);
      lib.crypto_sign_detached(signature, message, expandedKey(lib, secretKey));
      return signature;
    },
    signBase64(message, secretKey) {
      const signature = Buffer.allocUnsafe(64);
      lib.crypto_sign_detached(signature, message, expandedKey(lib, secretKey));
      return signature.toString("base64");
    },
    verify(signature, message, publicKey) {
      if (!ed25519EncodingsAcceptable(signature, publicKey)) return false;
      try {
        return lib.crypto_sign_verify_detached(signature, message, publicKey);
      } catch {
        return false;
      }
    },
  };
  return backend;
}
