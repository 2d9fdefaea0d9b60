import { mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createAgentProfile,
  generateIdentity,
  identityFromSecretKey,
  isOcpError,
  keyLookupFromProfiles,
  verifyAgentProfile,
} from "../src/index.js";
import { profilePublicKey } from "../src/internal.js";
import {
  generateIdentityWithEncryption,
  loadIdentity,
  nativeEd25519,
  recipientFromProfile,
  saveIdentity,
} from "../src/node/index.js";
import { ALICE, BOB } from "./support/samples.js";

describe("agent identity and profile (§8.1)", () => {
  it("binds the a2a:// URI to the Ed25519 public key in a self-signed profile", () => {
    const alice = generateIdentityWithEncryption(ALICE);
    const profile = createAgentProfile(alice, { name: "Alice", issuedAt: "2026-01-01T00:00:00Z" });
    expect(profile).toMatchObject({
      id: ALICE,
      name: "Alice",
      keyAlgorithm: "Ed25519",
      encryptionKeyAlgorithm: "X25519",
      protocols: ["a2a", "a2a+ocp"],
    });
    const verified = verifyAgentProfile(JSON.parse(JSON.stringify(profile)));
    expect(verified.ok).toBe(true);
    expect(verifyAgentProfile(profile, nativeEd25519).ok).toBe(true);
    expect(Buffer.from(profilePublicKey(profile))).toEqual(Buffer.from(alice.publicKey));
    expect(Buffer.from(recipientFromProfile(profile).publicKey)).toEqual(
      Buffer.from(alice.encryption!.publicKey),
    );
  });

  it("refuses a profile whose URI, key or any other member was changed", () => {
    const alice = generateIdentity(ALICE);
    const bob = generateIdentity(BOB);
    const profile = createAgentProfile(alice, { extra: { acme_team: "core" } });
    const tampered = [
      { ...profile, id: BOB },
      { ...profile, publicKey: Buffer.from(bob.publicKey).toString("base64") },
      { ...profile, acme_team: "ops" },
      { ...profile, name: "Mallory" },
    ];
    for (const value of tampered) {
      const result = verifyAgentProfile(value);
      expect(!result.ok && result.error.code).toBe("invalid_profile");
    }
    const malformed = verifyAgentProfile({ ...profile, id: "alice" });
    expect(!malformed.ok && malformed.error.code).toBe("invalid_profile");
  });

  it("builds a key lookup from verified profiles and refuses a forged one", () => {
    const alice = generateIdentity(ALICE);
    const bob = generateIdentity(BOB);
    const lookup = keyLookupFromProfiles([createAgentProfile(alice), createAgentProfile(bob)]);
    expect(Buffer.from(lookup(ALICE) as Uint8Array)).toEqual(Buffer.from(alice.publicKey));
    expect(lookup("a2a://nobody")).toBeUndefined();
    const forged = { ...createAgentProfile(bob), id: ALICE };
    expect(() => keyLookupFromProfiles([forged])).toThrow(/not signed by its own key/);
  });

  it("refuses an identity for a URI that is not a2a://", () => {
    try {
      generateIdentity("https://alice");
      expect.unreachable();
    } catch (error) {
      expect(isOcpError(error, "invalid_profile")).toBe(true);
    }
  });

  it("refuses an id that is not a string (from JavaScript) with invalid_profile, not a TypeError", () => {
    const notStrings: unknown[] = [undefined, null, 42, { id: ALICE }, [ALICE]];
    for (const id of notStrings) {
      expect(() => generateIdentity(id as string), String(id)).toThrow(
        expect.objectContaining({ code: "invalid_profile" }),
      );
      expect(() => identityFromSecretKey(id as string, generateIdentity(ALICE).secretKey)).toThrow(
        expect.objectContaining({ code: "invalid_profile" }),
      );
    }
  });
});

describe("identity files", () => {
  it("saves with mode 0600 and loads the same keys back", async () => {
    const dir = await mkdtemp(join(tmpdir(), "a2a-ocp-id-"));
    const path = join(dir, "keys", "alice.json");
    const alice = generateIdentityWithEncryption(ALICE);
    await saveIdentity(path, alice);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const loaded = await loadIdentity(path);
    expect(loaded.id).toBe(ALICE);
    expect(Buffer.from(loaded.secretKey)).toEqual(Buffer.from(alice.secretKey));
    expect(Buffer.from(loaded.publicKey)).toEqual(Buffer.from(alice.publicKey));
    expect(Buffer.from(loaded.encryption!.publicKey)).toEqual(
      Buffer.from(alice.encryption!.publicKey),
    );
    const file = JSON.parse(await readFile(path, "utf8"));
    expect(Object.keys(file).sort()).toEqual([
      "ed25519SecretKey",
      "format",
      "id",
      "x25519SecretKey",
    ]);
  });

  it("overwrites an existing file atomically and loads a signing-only identity", async () => {
    const dir = await mkdtemp(join(tmpdir(), "a2a-ocp-id-"));
    const path = join(dir, "bob.json");
    await saveIdentity(path, generateIdentity(BOB));
    const second = generateIdentity(BOB);
    await saveIdentity(path, second);
    const loaded = await loadIdentity(path);
    expect(Buffer.from(loaded.publicKey)).toEqual(Buffer.from(second.publicKey));
    expect(loaded.encryption).toBeUndefined();
  });

  it("refuses a file that is not JSON or not an identity with invalid_key", async () => {
    const dir = await mkdtemp(join(tmpdir(), "a2a-ocp-id-"));
    for (const [name, content] of [
      ["a.json", "{nope"],
      [
        "b.json",
        JSON.stringify({ format: "a2a+ocp-identity/1", id: ALICE, ed25519SecretKey: "short" }),
      ],
    ]) {
      await writeFile(join(dir, name!), content!);
      await expect(loadIdentity(join(dir, name!))).rejects.toMatchObject({ code: "invalid_key" });
    }
  });
});
