import { z } from "zod";
import { fromBase64Exact } from "./base64.js";
import { Base64Schema, SignatureSchema } from "./envelope.js";
import { fail, ok, type Result } from "./errors.js";
import { keyLookupVerifiedBy } from "./identity-keys.js";
import { isJsonObject } from "./json.js";
import { AgentUriSchema, TimestampSchema } from "./payloads/common.js";
import {
  defaultEd25519,
  ED25519_PUBLIC_KEY_BYTES,
  type Ed25519Backend,
  type KeyLookup,
  verifyObject,
} from "./signing.js";

/**
 * The agent profile schema (§8.1) and its verification; the identity itself
 * (key pairs, creating and signing a profile) is `identity-keys.ts`,
 * re-exported here.
 */

export {
  type AgentIdentity,
  createAgentProfile,
  generateIdentity,
  identityFromSecretKey,
  profilePublicKey,
} from "./identity-keys.js";

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

/**
 * A {@link KeyLookup} over profiles, each verified first; a profile that
 * fails verification is refused with its error rather than silently skipped.
 */
export function keyLookupFromProfiles(profiles: Iterable<unknown>): KeyLookup {
  return keyLookupVerifiedBy(profiles, (value) => verifyAgentProfile(value));
}
