import { fromBase64Exact, toBase64 } from "./base64.js";
import { messagingError, type Result } from "./errors.js";
import { checkAgentUri } from "./generated/plain-checks.js";
import type { AgentProfile } from "./identity.js";
import {
  defaultEd25519,
  ED25519_PUBLIC_KEY_BYTES,
  type Ed25519Backend,
  ed25519PublicKey,
  generateEd25519KeyPair,
  type KeyLookup,
  signObject,
} from "./signing.js";
import { PROTOCOL } from "./version.js";

/**
 * Agent identity (§8.1): an `a2a://` URI, an Ed25519 key pair, and a signed
 * agent profile that binds the URI to the public key.
 *
 * Encryption keys are separate X25519 keys, listed in the profile beside the
 * signing key, rather than derived from the Ed25519 key: one key per purpose,
 * and an encryption key can be rotated without changing the identity. The
 * self-signature makes the binding tamper-evident; whether to trust a
 * profile's first sight (pinning, a directory, an organization's signature)
 * is the deployment's choice.
 *
 * This module loads no zod (the browser entry uses it): the agent URI is
 * checked by the check generated from `AgentUriSchema`; parsing a received
 * profile is `identity.ts` (the schema) or `browser-messages.ts` (its
 * generated check).
 */

/** An agent's secret material. Keep it out of logs; save it with the node entry's `saveIdentity`. */
export interface AgentIdentity {
  readonly id: string;
  /** Ed25519 seed, 32 bytes. */
  readonly secretKey: Uint8Array;
  /** Ed25519 public key, 32 bytes. */
  readonly publicKey: Uint8Array;
  /** X25519 key pair for §8.4 encryption, when the agent receives encrypted messages. */
  readonly encryption?: { readonly secretKey: Uint8Array; readonly publicKey: Uint8Array };
}

/** Creates a new identity for `id` with a fresh Ed25519 key pair (and no encryption keys). */
export function generateIdentity(id: string): AgentIdentity {
  assertAgentUri(id);
  return { id, ...generateEd25519KeyPair() };
}

/** Rebuilds an identity from its secret keys, deriving the public keys. */
export function identityFromSecretKey(
  id: string,
  secretKey: Uint8Array,
  encryption?: { secretKey: Uint8Array; publicKey: Uint8Array },
): AgentIdentity {
  assertAgentUri(id);
  const publicKey = ed25519PublicKey(secretKey);
  return encryption === undefined
    ? { id, secretKey, publicKey }
    : { id, secretKey, publicKey, encryption };
}

function assertAgentUri(id: string): void {
  if (typeof id !== "string") {
    // JavaScript callers (and `any`) can pass anything: a typed error, not a TypeError from inside.
    throw messagingError(
      "invalid_profile",
      `an agent id is an a2a:// URI string, not ${typeof id}`,
    );
  }
  if (!checkAgentUri(id)) {
    throw messagingError(
      "invalid_profile",
      `not an a2a:// agent URI: ${JSON.stringify(id.slice(0, 80))}`,
    );
  }
}

/** Creates the identity's profile, signed with its own key. */
export function createAgentProfile(
  identity: AgentIdentity,
  options: { name?: string; issuedAt?: string; extra?: Record<string, unknown> } = {},
  backend: Ed25519Backend = defaultEd25519(),
): AgentProfile {
  const profile: Record<string, unknown> = {
    ...options.extra,
    id: identity.id,
    protocols: ["a2a", PROTOCOL],
    publicKey: toBase64(identity.publicKey),
    keyAlgorithm: "Ed25519",
    issuedAt: options.issuedAt ?? new Date().toISOString(),
  };
  if (options.name !== undefined) profile["name"] = options.name;
  if (identity.encryption !== undefined) {
    profile["encryptionKey"] = toBase64(identity.encryption.publicKey);
    profile["encryptionKeyAlgorithm"] = "X25519";
  }
  return signObject(profile, identity.secretKey, backend) as AgentProfile;
}

/** The Ed25519 public key a verified profile binds to its URI. */
export function profilePublicKey(profile: AgentProfile): Uint8Array {
  const key = fromBase64Exact(profile.publicKey, ED25519_PUBLIC_KEY_BYTES);
  if (key === undefined) throw messagingError("invalid_key", "profile public key is not 32 bytes");
  return key;
}

/**
 * A {@link KeyLookup} over profiles, each verified first by `verify`; a
 * profile that fails verification is refused with its error rather than
 * silently skipped.
 */
export function keyLookupVerifiedBy(
  profiles: Iterable<unknown>,
  verify: (value: unknown) => Result<AgentProfile, "invalid_profile">,
): KeyLookup {
  const keys = new Map<string, Uint8Array>();
  for (const value of profiles) {
    const verified = verify(value);
    if (!verified.ok) throw verified.error;
    keys.set(verified.value.id, profilePublicKey(verified.value));
  }
  return (agentId) => keys.get(agentId);
}
