import { z } from "zod";
import { fromBase64Exact, toBase64 } from "./base64.js";
import { Base64Schema, SignatureSchema } from "./envelope.js";
import { fail, messagingError, ok, type Result } from "./errors.js";
import { isJsonObject } from "./json.js";
import { AgentUriSchema, TimestampSchema } from "./payloads/common.js";
import {
  defaultEd25519,
  ED25519_PUBLIC_KEY_BYTES,
  type Ed25519Backend,
  ed25519PublicKey,
  generateEd25519KeyPair,
  type KeyLookup,
  signObject,
  verifyObject,
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

/** A 32-byte key, base64 (44 characters). */
export const PublicKeySchema = Base64Schema.length(44);

/** The signed agent profile (§8.1), an A2A agent card subset; extension fields are kept and signed. */
export const AgentProfileSchema = z
  .looseObject({
    id: AgentUriSchema,
    name: z.string().optional(),
    protocols: z.array(z.string()).optional(),
    /** Ed25519 public key, base64. */
    publicKey: PublicKeySchema,
    keyAlgorithm: z.literal("Ed25519"),
    /** X25519 public key for §8.4 encryption, base64. */
    encryptionKey: PublicKeySchema.optional(),
    encryptionKeyAlgorithm: z.literal("X25519").optional(),
    issuedAt: TimestampSchema,
    signature: SignatureSchema,
  })
  .refine((p) => (p.encryptionKey === undefined) === (p.encryptionKeyAlgorithm === undefined), {
    message: "encryptionKey and encryptionKeyAlgorithm go together",
    path: ["encryptionKeyAlgorithm"],
  })
  .meta({ id: "AgentProfile", description: "§8.1 a self-signed agent profile." });
export type AgentProfile = z.infer<typeof AgentProfileSchema>;

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
  if (!AgentUriSchema.safeParse(id).success) {
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

/**
 * Parses and verifies a profile as received (parsed JSON): its shape, then
 * its self-signature over every member but `signature`.
 */
export function verifyAgentProfile(
  value: unknown,
  backend: Ed25519Backend = defaultEd25519(),
): Result<AgentProfile, "invalid_profile"> {
  const parsed = AgentProfileSchema.safeParse(value);
  if (!parsed.success) {
    return fail(
      "invalid_profile",
      `malformed agent profile: ${parsed.error.issues[0]?.message ?? ""}`,
      {
        details: { issues: parsed.error.issues },
      },
    );
  }
  const publicKey = fromBase64Exact(parsed.data.publicKey, ED25519_PUBLIC_KEY_BYTES);
  if (publicKey === undefined || !isJsonObject(value) || !verifyObject(value, publicKey, backend)) {
    return fail("invalid_profile", `the profile of ${parsed.data.id} is not signed by its own key`);
  }
  return ok(parsed.data);
}

/** The Ed25519 public key a verified profile binds to its URI. */
export function profilePublicKey(profile: AgentProfile): Uint8Array {
  const key = fromBase64Exact(profile.publicKey, ED25519_PUBLIC_KEY_BYTES);
  if (key === undefined) throw messagingError("invalid_key", "profile public key is not 32 bytes");
  return key;
}

/**
 * A {@link KeyLookup} over profiles, each verified first; a profile that
 * fails verification is refused with its error rather than silently skipped.
 */
export function keyLookupFromProfiles(profiles: Iterable<unknown>): KeyLookup {
  const keys = new Map<string, Uint8Array>();
  for (const value of profiles) {
    const verified = verifyAgentProfile(value);
    if (!verified.ok) throw verified.error;
    keys.set(verified.value.id, profilePublicKey(verified.value));
  }
  return (agentId) => keys.get(agentId);
}
