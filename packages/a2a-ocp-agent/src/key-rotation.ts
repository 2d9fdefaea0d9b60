/**
 * §8.4 rotating an agent's X25519 encryption key. The identity file
 * (`saveIdentity` of `@ocp/a2a-ocp-messaging/node`) holds the current key;
 * the keys rotated away from live in a file beside it
 * (`<identity>.retired.json`, mode 0600), each with when it was retired, so
 * the agent still opens messages sealed for an old key for
 * {@link ENCRYPTION_KEY_GRACE_MS} (`OCPAgentOptions.retiredEncryptionKeys`).
 * The new key reaches senders in the profile the agent signs and announces
 * next (`createAgentProfile` of the new identity: a newer `issuedAt`), within
 * `SEALING_KEY_MAX_AGE_MS` of it.
 */
import { readFile, rename, writeFile } from "node:fs/promises";
import type { AgentIdentity } from "@ocp/a2a-ocp-messaging";
import { generateX25519KeyPair } from "@ocp/a2a-ocp-messaging/node";
import { ENCRYPTION_KEY_GRACE_MS } from "./limits.js";
import type { RetiredEncryptionKey } from "./unsealing.js";

const X25519_KEY_BYTES = 32;

/** A new encryption key for `identity`; the old one (if any) is returned retired at `now`. */
export function rotateEncryptionKey(
  identity: AgentIdentity,
  now: number = Date.now(),
): { identity: AgentIdentity; retired: RetiredEncryptionKey | undefined } {
  const retired =
    identity.encryption === undefined
      ? undefined
      : { secretKey: identity.encryption.secretKey, retiredAt: now };
  return { identity: { ...identity, encryption: generateX25519KeyPair() }, retired };
}

/** The retired keys still inside their grace period at `now`. */
export function keysInGrace(
  keys: readonly RetiredEncryptionKey[],
  now: number = Date.now(),
): RetiredEncryptionKey[] {
  return keys.filter((k) => now - k.retiredAt <= ENCRYPTION_KEY_GRACE_MS);
}

/** Saves retired keys (those still in their grace period) to `path`, mode 0600, atomically. */
export async function saveRetiredKeys(
  path: string,
  keys: readonly RetiredEncryptionKey[],
  now: number = Date.now(),
): Promise<void> {
  const file = {
    retiredEncryptionKeys: keysInGrace(keys, now).map((k) => ({
      x25519SecretKey: Buffer.from(k.secretKey).toString("base64"),
      retiredAt: k.retiredAt,
    })),
  };
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, path);
}

/** Loads retired keys from `path` (none when it does not exist); entries past grace or malformed are left out. */
export async function loadRetiredKeys(
  path: string,
  now: number = Date.now(),
): Promise<RetiredEncryptionKey[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return [];
    throw error;
  }
  const parsed = JSON.parse(text) as { retiredEncryptionKeys?: unknown };
  const entries = Array.isArray(parsed.retiredEncryptionKeys) ? parsed.retiredEncryptionKeys : [];
  const keys: RetiredEncryptionKey[] = [];
  for (const entry of entries as { x25519SecretKey?: unknown; retiredAt?: unknown }[]) {
    if (typeof entry?.x25519SecretKey !== "string" || typeof entry.retiredAt !== "number") continue;
    const secretKey = new Uint8Array(Buffer.from(entry.x25519SecretKey, "base64"));
    if (secretKey.length === X25519_KEY_BYTES) keys.push({ secretKey, retiredAt: entry.retiredAt });
  }
  return keysInGrace(keys, now);
}
