import * as ed from "@noble/ed25519";
import { sha512 } from "@noble/hashes/sha2.js";
import { fromBase64Exact, toBase64 } from "./base64.js";
import { canonicalizeWithout } from "./canonical.js";
import { ed25519EncodingsAcceptable } from "./ed25519-rules.js";
import { fail, messagingError, ok, type Result } from "./errors.js";

/**
 * Message signatures (§8.2, §8.3), Ed25519 over the RFC 8785 canonical JSON of
 * the whole message minus `signature`.
 *
 * Why the whole message: the specification's §8.2 signs a list of seven
 * fields (protocol, id, from, to, type, timestamp, payload). Everything else
 * would then be unauthenticated: an attacker on the path could raise `ttl` to
 * keep a captured message fresh for a day, change `version`, set `priority`
 * to `urgent`, point `reply_to` or `correlation_id` elsewhere, flip
 * `encrypted`, or add extension fields. Signing all of it leaves nothing to
 * tamper with, and verifying over the canonical form of what was received
 * (parse → drop `signature` → JCS) covers fields this version does not know.
 * JCS rather than `JSON.stringify` because member order and number spelling
 * then no longer depend on the sender's JSON library.
 */

ed.hashes.sha512 = sha512;

const encoder = new TextEncoder();

/** Length of an Ed25519 public key, secret key (seed) and signature, in bytes. */
export const ED25519_PUBLIC_KEY_BYTES = 32;
export const ED25519_SECRET_KEY_BYTES = 32;
export const ED25519_SIGNATURE_BYTES = 64;

/**
 * One Ed25519 implementation. Every backend must agree with RFC 8032 and with
 * the others: each refuses, before verifying, what
 * `ed25519EncodingsAcceptable` refuses (non-canonical encodings, points
 * of small order, S not below L), so all accept exactly the same signatures.
 */
export interface Ed25519Backend {
  readonly name: string;
  /** Signs `message` with a 32-byte secret key (seed). */
  sign(message: Uint8Array, secretKey: Uint8Array): Uint8Array;
  /** Optional: {@link sign} as padded base64, where the platform encodes faster than JS. */
  signBase64?(message: Uint8Array, secretKey: Uint8Array): string;
  /** Whether `signature` is valid; never throws (a malformed key or signature is `false`). */
  verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
}

/**
 * `@noble/ed25519`, portable (browsers, Deno, Node). Verification uses the
 * strict RFC 8032 rules (`zip215: false`: canonical encodings) after the
 * shared encoding rules, so it accepts exactly what the native backends accept.
 */
export const nobleEd25519: Ed25519Backend = {
  name: "noble",
  sign(message, secretKey) {
    return ed.sign(message, secretKey);
  },
  verify(signature, message, publicKey) {
    if (!ed25519EncodingsAcceptable(signature, publicKey)) return false;
    try {
      return ed.verify(signature, message, publicKey, { zip215: false });
    } catch {
      return false;
    }
  },
};

let preferred: Ed25519Backend = nobleEd25519;

/**
 * The backend every signing and verifying function of this package uses when
 * none is given, chosen once when the package loads: in Node (the `node`
 * export condition) the native one, `node:crypto`'s OpenSSL Ed25519, when it
 * has Ed25519; elsewhere (browsers) noble. Call sites never choose.
 */
export function defaultEd25519(): Ed25519Backend {
  return preferred;
}

/** Sets `defaultEd25519`: called once by the Node entry, not exported from the package. */
export function preferEd25519(backend: Ed25519Backend): void {
  preferred = backend;
}

/** A fresh Ed25519 key pair from the platform's secure random source. */
export function generateEd25519KeyPair(): { secretKey: Uint8Array; publicKey: Uint8Array } {
  const secretKey = ed.utils.randomSecretKey();
  return { secretKey, publicKey: ed.getPublicKey(secretKey) };
}

/** The public key of a 32-byte Ed25519 secret key. */
export function ed25519PublicKey(secretKey: Uint8Array): Uint8Array {
  if (secretKey.length !== ED25519_SECRET_KEY_BYTES) {
    throw messagingError("invalid_key", "an Ed25519 secret key is 32 bytes");
  }
  return ed.getPublicKey(secretKey);
}

function ownMember(value: unknown): PropertyDescriptor {
  return { value, enumerable: true, writable: true, configurable: true };
}

/** The value with its `signature` member removed: what a signature covers. */
export function withoutSignature(
  value: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const { signature: _signature, ...rest } = value;
  return rest;
}

/** The bytes a message signature is computed over: JCS of the message minus `signature`. */
export function signingInput(value: object): Uint8Array {
  return encoder.encode(canonicalizeWithout(value, "signature"));
}

/**
 * Signs a message (or any JSON object, e.g. an agent profile): returns a copy
 * with `signature` set to the base64 Ed25519 signature of its canonical form.
 * An existing signature is replaced.
 */
export function signObject<T extends object>(
  value: T,
  secretKey: Uint8Array,
  backend: Ed25519Backend = defaultEd25519(),
): T & { signature: string } {
  if (secretKey.length !== ED25519_SECRET_KEY_BYTES) {
    throw messagingError("invalid_key", "an Ed25519 secret key is 32 bytes");
  }
  const input = signingInput(value);
  const signature =
    backend.signBase64 !== undefined
      ? backend.signBase64(input, secretKey)
      : toBase64(backend.sign(input, secretKey));
  // The copy keeps the members' order with `signature` where JCS would put it, so a message
  // built in canonical order (createMessage) goes out in canonical order and its receivers'
  // canonicalization copies nothing.
  const signed: Record<string, unknown> = {};
  let placed = false;
  for (const key of Object.keys(value)) {
    if (key === "signature") continue;
    if (!placed && key > "signature") {
      signed["signature"] = signature;
      placed = true;
    }
    // A member named __proto__ (own, after JSON.parse) stays a member, not the prototype.
    const member: unknown = Reflect.get(value, key);
    if (key === "__proto__") Object.defineProperty(signed, key, ownMember(member));
    else signed[key] = member;
  }
  if (!placed) signed["signature"] = signature;
  return signed as T & { signature: string };
}

/**
 * Whether `value` (the parsed JSON as received) carries a valid signature by
 * `publicKey` over its canonical form. False for a missing or malformed
 * signature, a wrong-length key or a value without a canonical form.
 */
export function verifyObject(
  value: object,
  publicKey: Uint8Array,
  backend: Ed25519Backend = defaultEd25519(),
): boolean {
  const encoded: unknown = Reflect.get(value, "signature");
  if (typeof encoded !== "string" || publicKey.length !== ED25519_PUBLIC_KEY_BYTES) return false;
  const signature = fromBase64Exact(encoded, ED25519_SIGNATURE_BYTES);
  if (signature === undefined) return false;
  let input: Uint8Array;
  try {
    input = signingInput(value);
  } catch {
    return false;
  }
  return backend.verify(signature, input, publicKey);
}

/** Our signature scheme, as named in refusals of a message signed another way. */
export const SIGNATURE_SCHEME =
  "Ed25519 over the RFC 8785 (JCS) canonical JSON of the whole message minus `signature`, base64";

/** Where {@link SIGNATURE_SCHEME} is written down, relative to the repository root. */
export const SIGNATURE_SCHEME_DOC = "docs/a2a-ocp-wire.md#signature-scheme";

/** The seven fields §8.2's example signs, in its order. */
export const SPEC_SIGNED_FIELDS = [
  "protocol",
  "id",
  "from",
  "to",
  "type",
  "timestamp",
  "payload",
] as const;

/**
 * The bytes §8.2's example signs: UTF-8 of `JSON.stringify` of the seven
 * fields in that order (fields the message lacks are left out, as
 * `JSON.stringify` does with `undefined`). Not our scheme: used only to tell
 * a sender that signed this way why it is refused.
 */
export function specFieldsSigningInput(value: object): Uint8Array {
  const picked: Record<string, unknown> = {};
  for (const field of SPEC_SIGNED_FIELDS) picked[field] = Reflect.get(value, field);
  return new TextEncoder().encode(JSON.stringify(picked));
}

/**
 * Whether `value` carries a valid signature by `publicKey` made the §8.2 way
 * ({@link specFieldsSigningInput}; base64 or hex). Only asked after our own
 * verification failed, to refuse with `signature_scheme_mismatch`.
 */
export function signedWithSpecFields(
  value: object,
  publicKey: Uint8Array,
  backend: Ed25519Backend = defaultEd25519(),
): boolean {
  const encoded: unknown = Reflect.get(value, "signature");
  if (typeof encoded !== "string" || publicKey.length !== ED25519_PUBLIC_KEY_BYTES) return false;
  const signature = /^[0-9a-fA-F]{128}$/.test(encoded)
    ? Uint8Array.from(hexBytes(encoded))
    : fromBase64Exact(encoded, ED25519_SIGNATURE_BYTES);
  if (signature === undefined) return false;
  let input: Uint8Array;
  try {
    input = specFieldsSigningInput(value);
  } catch {
    return false;
  }
  return backend.verify(signature, input, publicKey);
}

function hexBytes(hex: string): number[] {
  const bytes: number[] = [];
  for (let i = 0; i < hex.length; i += 2) bytes.push(Number.parseInt(hex.slice(i, i + 2), 16));
  return bytes;
}

/** The refusal of a message whose signature fails ours but verifies the §8.2 way. */
export function schemeMismatchMessage(from: string): string {
  return `the signature of ${from} is over JSON.stringify of the seven §8.2 fields; this implementation signs and verifies ${SIGNATURE_SCHEME} (see ${SIGNATURE_SCHEME_DOC})`;
}

/**
 * Finds the Ed25519 public key of an agent URI (§8.3 "get sender's public
 * key"): from verified agent profiles, a directory, a pinned list. Returns
 * `undefined` for an unknown agent.
 */
export type KeyLookup = (
  agentId: string,
) => Uint8Array | undefined | Promise<Uint8Array | undefined>;

/** The codes a signature check (§8.3) refuses with. */
export type SignatureCheckCode =
  | "signature_missing"
  | "unknown_sender"
  | "signature_invalid"
  | "signature_scheme_mismatch";

/** A synchronous {@link KeyLookup}: for callers that hold every key in memory (the hub). */
export type SyncKeyLookup = (agentId: string) => Uint8Array | undefined;

/** What a key lookup gave: the key (or none), or the error it threw. */
type Looked = { readonly key: Uint8Array | undefined } | { readonly thrown: unknown };

/** §8.3 before the key lookup: the sender to look up, or `signature_missing`. */
function senderToLook(raw: object): Result<string, "signature_missing"> {
  const from: unknown = Reflect.get(raw, "from");
  const sender = typeof from === "string" ? from : "";
  if (Reflect.get(raw, "signature") === undefined) {
    return fail("signature_missing", `message from ${sender} is not signed`);
  }
  return ok(sender);
}

/**
 * §8.3 after the key lookup: every verdict of a signature check is decided
 * here, once, for {@link verifyMessage} and {@link verifyMessageSync} alike.
 */
function signatureVerdict(
  raw: object,
  from: string,
  looked: Looked,
  backend: Ed25519Backend,
): Result<true, SignatureCheckCode> {
  if ("thrown" in looked) {
    return fail("unknown_sender", `the key lookup for ${from} failed`, {
      cause: looked.thrown,
      details: { from },
    });
  }
  const key = looked.key;
  if (key === undefined) {
    return fail("unknown_sender", `no public key for ${from}`, { details: { from } });
  }
  if (!verifyObject(raw, key, backend)) {
    // Only after ours failed: a sender that signed §8.2's seven fields is told why.
    if (signedWithSpecFields(raw, key, backend)) {
      return fail("signature_scheme_mismatch", schemeMismatchMessage(from), {
        details: { from, scheme: SIGNATURE_SCHEME, documentation: SIGNATURE_SCHEME_DOC },
      });
    }
    return fail("signature_invalid", `the signature does not verify for ${from}`, {
      details: { from },
    });
  }
  return ok(true);
}

/**
 * §8.3 verifies a received message (the parsed JSON) against its sender's key
 * found through `lookupKey`: `signature_missing` when it has no signature,
 * `unknown_sender` when the lookup finds no key (or throws),
 * `signature_invalid` when the signature does not verify
 * (`signature_scheme_mismatch` when it verifies only the §8.2 way).
 * {@link verifyMessageSync} gives the same verdicts from the same code.
 */
export async function verifyMessage(
  raw: object,
  lookupKey: KeyLookup,
  backend: Ed25519Backend = defaultEd25519(),
): Promise<Result<true, SignatureCheckCode>> {
  const from = senderToLook(raw);
  if (!from.ok) return from;
  let looked: Looked;
  try {
    looked = { key: await lookupKey(from.value) };
  } catch (thrown) {
    looked = { thrown };
  }
  return signatureVerdict(raw, from.value, looked, backend);
}

/**
 * {@link verifyMessage} with a synchronous key lookup (the hub's registry):
 * the same rules, codes and texts, decided by the same code, without a
 * promise per message.
 */
export function verifyMessageSync(
  raw: object,
  keyOf: SyncKeyLookup,
  backend: Ed25519Backend = defaultEd25519(),
): Result<true, SignatureCheckCode> {
  const from = senderToLook(raw);
  if (!from.ok) return from;
  let looked: Looked;
  try {
    looked = { key: keyOf(from.value) };
  } catch (thrown) {
    looked = { thrown };
  }
  return signatureVerdict(raw, from.value, looked, backend);
}
