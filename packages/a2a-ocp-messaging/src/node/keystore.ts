import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import { fromBase64Exact, toBase64 } from "../base64.js";
import { messagingError } from "../errors.js";
import {
  type AgentIdentity,
  generateIdentity,
  identityFromSecretKey,
  PublicKeySchema,
} from "../identity.js";
import { AgentUriSchema } from "../payloads/common.js";
import { generateX25519KeyPair, x25519PublicKey } from "./encryption.js";

/**
 * Identity files: one JSON document per agent holding its secret keys,
 * written with mode 0600 through a temporary file and a rename, so a crash
 * never leaves half a key behind. Public keys are derived on load, never
 * trusted from the file.
 */

/** The `format` of an identity file. */
export const IDENTITY_FILE_FORMAT = "a2a+ocp-identity/1";

export const IdentityFileSchema = z.object({
  format: z.literal(IDENTITY_FILE_FORMAT),
  id: AgentUriSchema,
  /** Ed25519 seed, base64. */
  ed25519SecretKey: PublicKeySchema,
  /** X25519 secret key, base64. */
  x25519SecretKey: PublicKeySchema.optional(),
});
export type IdentityFile = z.infer<typeof IdentityFileSchema>;

/** A new identity with an Ed25519 signing key and an X25519 encryption key. */
export function generateIdentityWithEncryption(id: string): AgentIdentity {
  return { ...generateIdentity(id), encryption: generateX25519KeyPair() };
}

/** The file form of an identity. */
export function identityToFile(identity: AgentIdentity): IdentityFile {
  const file: IdentityFile = {
    format: IDENTITY_FILE_FORMAT,
    id: identity.id,
    ed25519SecretKey: toBase64(identity.secretKey),
  };
  if (identity.encryption !== undefined)
    file.x25519SecretKey = toBase64(identity.encryption.secretKey);
  return file;
}

/** Rebuilds an identity from its file form (parsed JSON), deriving every public key. */
export function identityFromFile(value: unknown): AgentIdentity {
  const parsed = IdentityFileSchema.safeParse(value);
  if (!parsed.success) {
    throw messagingError("invalid_key", "not an a2a+ocp identity file", {
      details: { issues: parsed.error.issues },
    });
  }
  const secretKey = fromBase64Exact(parsed.data.ed25519SecretKey, 32)!;
  if (parsed.data.x25519SecretKey === undefined)
    return identityFromSecretKey(parsed.data.id, secretKey);
  const x = fromBase64Exact(parsed.data.x25519SecretKey, 32)!;
  return identityFromSecretKey(parsed.data.id, secretKey, {
    secretKey: x,
    publicKey: x25519PublicKey(x),
  });
}

/** Saves an identity to `path` (mode 0600, atomic replace). */
export async function saveIdentity(path: string, identity: AgentIdentity): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, `${JSON.stringify(identityToFile(identity), null, 2)}\n`, {
    mode: 0o600,
    flag: "wx",
  });
  await rename(temporary, path);
}

/** Loads an identity saved by {@link saveIdentity}. */
export async function loadIdentity(path: string): Promise<AgentIdentity> {
  const text = await readFile(path, "utf8");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw messagingError("invalid_key", `${path} is not JSON`, { cause });
  }
  return identityFromFile(value);
}
