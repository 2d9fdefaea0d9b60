import {
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  type KeyObject,
  randomBytes,
} from "node:crypto";
import { canonicalBytes } from "../canonical.js";
import { decodeMessage } from "../decode.js";
import type { EncryptedMessage } from "../envelope.js";
import { fail, messagingError, type Result } from "../errors.js";
import type { AgentProfile } from "../identity.js";
import type { Decryptor } from "../inbound.js";
import { parseJson } from "../json.js";
import { MAX_RECIPIENTS } from "../limits.js";
import type { PlainMessage } from "../messages.js";

/**
 * §8.4 end-to-end encryption.
 *
 * - A fresh 32-byte content key K and 12-byte IV encrypt the payload's RFC 8785
 *   JSON with AES-256-GCM. The additional data is the JCS of
 *   `{protocol, id, from, type}`, so a ciphertext cannot be moved into another
 *   message or re-sent under another sender's name.
 *   `ciphertext` = base64(iv[12] ‖ ciphertext ‖ tag[16]).
 * - K is wrapped for each recipient: a fresh ephemeral X25519 key pair,
 *   S = X25519(ephemeral, recipient), KEK = HKDF-SHA256(S, salt = ephemeralPub ‖
 *   recipientPub, info = "a2a+ocp/1 key-wrap " + agentId, 32 bytes), then
 *   AES-256-GCM(KEK, wrapIv, K).
 *   `encryptedKey` = base64(ephemeralPub[32] ‖ wrapIv[12] ‖ wrappedKey[32] ‖ tag[16]), 92 bytes.
 * - The payload keeps exactly the specification's fields: `ciphertext`,
 *   `algorithm: "AES-256-GCM"`, `recipientKeys: [{agentId, encryptedKey}]`.
 * - Encrypt, then sign: the signature covers the ciphertext and every wrapped
 *   key, so tampering is caught before decryption, and GCM catches it again.
 *
 * Recipients' X25519 keys are separate from their Ed25519 identity keys and
 * published in their signed profiles (`encryptionKey`).
 */

export const X25519_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const CONTENT_KEY_BYTES = 32;
const WRAPPED_KEY_BYTES = X25519_KEY_BYTES + IV_BYTES + CONTENT_KEY_BYTES + TAG_BYTES;
const WRAP_INFO = "a2a+ocp/1 key-wrap ";

const X25519_SPKI_PREFIX = Buffer.from("302a300506032b656e032100", "hex");
const X25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b656e04220420", "hex");

/** One recipient of an encrypted message. */
export interface EncryptionRecipient {
  readonly agentId: string;
  /** X25519 public key, 32 bytes. */
  readonly publicKey: Uint8Array;
}

/** A recipient's own decryption material. */
export interface DecryptionKey {
  readonly agentId: string;
  /** X25519 secret key, 32 bytes. */
  readonly secretKey: Uint8Array;
}

function x25519Public(raw: Uint8Array): KeyObject {
  if (raw.length !== X25519_KEY_BYTES)
    throw messagingError("invalid_key", "an X25519 key is 32 bytes");
  return createPublicKey({
    key: Buffer.concat([X25519_SPKI_PREFIX, raw]),
    format: "der",
    type: "spki",
  });
}

function x25519Secret(raw: Uint8Array): KeyObject {
  if (raw.length !== X25519_KEY_BYTES)
    throw messagingError("invalid_key", "an X25519 key is 32 bytes");
  return createPrivateKey({
    key: Buffer.concat([X25519_PKCS8_PREFIX, raw]),
    format: "der",
    type: "pkcs8",
  });
}

function rawPublic(key: KeyObject): Uint8Array {
  return new Uint8Array(
    key.export({ format: "der", type: "spki" }).subarray(X25519_SPKI_PREFIX.length),
  );
}

/** A fresh X25519 key pair for receiving encrypted messages. */
export function generateX25519KeyPair(): { secretKey: Uint8Array; publicKey: Uint8Array } {
  const { privateKey, publicKey } = generateKeyPairSync("x25519");
  const pkcs8 = privateKey.export({ format: "der", type: "pkcs8" });
  return {
    secretKey: new Uint8Array(pkcs8.subarray(X25519_PKCS8_PREFIX.length)),
    publicKey: rawPublic(publicKey),
  };
}

/** The X25519 public key of a secret key. */
export function x25519PublicKey(secretKey: Uint8Array): Uint8Array {
  return rawPublic(createPublicKey(x25519Secret(secretKey)));
}

/** The recipient entry of a verified profile that publishes an encryption key. */
export function recipientFromProfile(profile: AgentProfile): EncryptionRecipient {
  if (profile.encryptionKey === undefined) {
    throw messagingError("invalid_key", `${profile.id} publishes no encryption key`);
  }
  return {
    agentId: profile.id,
    publicKey: new Uint8Array(Buffer.from(profile.encryptionKey, "base64")),
  };
}

function associatedData(message: {
  protocol: string;
  id: string;
  from: string;
  type: string;
}): Uint8Array {
  return canonicalBytes({
    protocol: message.protocol,
    id: message.id,
    from: message.from,
    type: message.type,
  });
}

function keyEncryptionKey(
  shared: Uint8Array,
  ephemeral: Uint8Array,
  recipient: Uint8Array,
  agentId: string,
): Buffer {
  const salt = Buffer.concat([ephemeral, recipient]);
  return Buffer.from(
    hkdfSync("sha256", shared, salt, Buffer.from(WRAP_INFO + agentId, "utf8"), CONTENT_KEY_BYTES),
  );
}

function seal(key: Uint8Array, iv: Uint8Array, plaintext: Uint8Array, aad?: Uint8Array): Buffer {
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  if (aad !== undefined) cipher.setAAD(aad);
  return Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
}

function open(key: Uint8Array, iv: Uint8Array, sealed: Uint8Array, aad?: Uint8Array): Buffer {
  const decipher = createDecipheriv("aes-256-gcm", key, iv);
  if (aad !== undefined) decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  return Buffer.concat([
    decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)),
    decipher.final(),
  ]);
}

/**
 * Encrypts the payload of a plain message for `recipients` (include yourself
 * to read it back). Returns the unsigned encrypted message: sign it next.
 */
export function encryptMessage(
  message: PlainMessage,
  recipients: readonly EncryptionRecipient[],
): EncryptedMessage {
  if (recipients.length === 0 || recipients.length > MAX_RECIPIENTS) {
    throw messagingError(
      "invalid_option",
      `an encrypted message has 1 to ${MAX_RECIPIENTS} recipients`,
    );
  }
  if (new Set(recipients.map((r) => r.agentId)).size !== recipients.length) {
    throw messagingError("invalid_option", "each recipient appears once");
  }
  const contentKey = randomBytes(CONTENT_KEY_BYTES);
  const iv = randomBytes(IV_BYTES);
  const sealed = seal(contentKey, iv, canonicalBytes(message.payload), associatedData(message));
  const ephemeral = generateKeyPairSync("x25519");
  const ephemeralPublic = rawPublic(ephemeral.publicKey);
  const recipientKeys = recipients.map(({ agentId, publicKey }) => {
    const shared = diffieHellman({
      privateKey: ephemeral.privateKey,
      publicKey: x25519Public(publicKey),
    });
    const kek = keyEncryptionKey(shared, ephemeralPublic, publicKey, agentId);
    const wrapIv = randomBytes(IV_BYTES);
    const wrapped = seal(kek, wrapIv, contentKey);
    return {
      agentId,
      encryptedKey: Buffer.concat([ephemeralPublic, wrapIv, wrapped]).toString("base64"),
    };
  });
  const { payload: _payload, signature: _signature, ...envelope } = message;
  return {
    ...envelope,
    encrypted: true,
    payload: {
      ciphertext: Buffer.concat([iv, sealed]).toString("base64"),
      algorithm: "AES-256-GCM",
      recipientKeys,
    },
  } as EncryptedMessage;
}

/**
 * Decrypts a message addressed to `key.agentId`: unwraps the content key,
 * authenticates and decrypts the payload, and validates it for the message's
 * type. The result is the plain message (without `encrypted` and `signature`).
 */
export function decryptMessage(
  message: EncryptedMessage,
  key: DecryptionKey,
): Result<PlainMessage, "not_a_recipient" | "decryption_failed" | "invalid_message"> {
  const entry = message.payload.recipientKeys.find((k) => k.agentId === key.agentId);
  if (entry === undefined) {
    return fail("not_a_recipient", `${key.agentId} is not a recipient of message ${message.id}`);
  }
  let plaintext: Buffer;
  try {
    const wrapped = Buffer.from(entry.encryptedKey, "base64");
    const sealedPayload = Buffer.from(message.payload.ciphertext, "base64");
    if (wrapped.length !== WRAPPED_KEY_BYTES || sealedPayload.length < IV_BYTES + TAG_BYTES) {
      return fail("decryption_failed", "a wrapped key or the ciphertext has the wrong length");
    }
    const ephemeralPublic = wrapped.subarray(0, X25519_KEY_BYTES);
    const secret = x25519Secret(key.secretKey);
    const shared = diffieHellman({ privateKey: secret, publicKey: x25519Public(ephemeralPublic) });
    const own = rawPublic(createPublicKey(secret));
    const kek = keyEncryptionKey(shared, ephemeralPublic, own, key.agentId);
    const contentKey = open(
      kek,
      wrapped.subarray(X25519_KEY_BYTES, X25519_KEY_BYTES + IV_BYTES),
      wrapped.subarray(X25519_KEY_BYTES + IV_BYTES),
    );
    plaintext = open(
      contentKey,
      sealedPayload.subarray(0, IV_BYTES),
      sealedPayload.subarray(IV_BYTES),
      associatedData(message),
    );
  } catch (cause) {
    return fail("decryption_failed", `message ${message.id} does not decrypt for ${key.agentId}`, {
      cause,
    });
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(plaintext);
  } catch (cause) {
    return fail("invalid_message", "the decrypted payload is not UTF-8", { cause });
  }
  const payload = parseJson(text);
  if (!payload.ok) return fail("invalid_message", payload.error.message, { cause: payload.error });
  const { encrypted: _e, signature: _s, payload: _p, ...envelope } = message;
  const decoded = decodeMessage({ ...envelope, payload: payload.value });
  if (!decoded.ok) return fail("invalid_message", decoded.error.message, { cause: decoded.error });
  return { ok: true, value: decoded.value as PlainMessage };
}

/** A {@link Decryptor} for the inbound pipeline. */
export function createDecryptor(key: DecryptionKey): Decryptor {
  return (message) => decryptMessage(message, key);
}
