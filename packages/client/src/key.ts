import { generateEd25519KeyPair } from "@ocp/a2a-ocp-messaging/internal";
import { clientError } from "./errors.js";

/** Length of an Ed25519 secret key (its seed), bytes. */
const SECRET_KEY_BYTES = 32;
const HEX = /^[0-9a-fA-F]{64}$/;
const BASE64 = /^[A-Za-z0-9+/]{43}=$/;

/**
 * Reads a private key as §10.5 passes it (`process.env.PRIVATE_KEY`): 32
 * bytes, as base64 (44 characters), hex (64) or a `Uint8Array`. Anything
 * else, `undefined` included, is a typed error that never echoes the key.
 */
export function readPrivateKey(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) {
    if (value.length === SECRET_KEY_BYTES) return value;
    throw clientError(
      "invalid_private_key",
      `privateKey has ${value.length} bytes; an Ed25519 secret key has ${SECRET_KEY_BYTES}`,
    );
  }
  if (typeof value !== "string") {
    throw clientError(
      "invalid_private_key",
      `privateKey is ${value === undefined ? "missing (is PRIVATE_KEY set?)" : `a ${typeof value}`}; pass 32 bytes as base64, hex or a Uint8Array`,
    );
  }
  const text = value.trim();
  if (HEX.test(text)) return Uint8Array.from(Buffer.from(text, "hex"));
  if (BASE64.test(text)) return Uint8Array.from(Buffer.from(text, "base64"));
  throw clientError(
    "invalid_private_key",
    `privateKey (${text.length} characters) is neither 44 characters of base64 nor 64 of hex`,
  );
}

/** A fresh Ed25519 private key, base64: what `PRIVATE_KEY` holds. */
export function generatePrivateKey(): string {
  return Buffer.from(generateEd25519KeyPair().secretKey).toString("base64");
}
