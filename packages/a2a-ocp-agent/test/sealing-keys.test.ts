/**
 * §8.4 keys: a recipient's key comes from a verified profile and is re-read
 * after SEALING_KEY_MAX_AGE_MS (a rotated key is picked up); a forged or
 * keyless profile gives no key; retired keys survive a restart in their
 * file, mode 0600, only within their grace period.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { type AgentIdentity, createAgentProfile } from "@ocp/a2a-ocp-messaging";
import { generateIdentityWithEncryption } from "@ocp/a2a-ocp-messaging/node";
import { tempDir } from "@ocp/testkit";
import { describe, expect, it } from "vitest";
import { loadRetiredKeys, rotateEncryptionKey, saveRetiredKeys } from "../src/key-rotation.js";
import { ENCRYPTION_KEY_GRACE_MS, SEALING_KEY_MAX_AGE_MS } from "../src/limits.js";
import { MemoryNetwork } from "../src/link.js";
import { RecipientKeys } from "../src/sealing-keys.js";

const alice = generateIdentityWithEncryption("a2a://alice");

describe("§8.4 recipients' keys", () => {
  it("uses the key of the profile discovery returned, and a rotated one once the cached key is SEALING_KEY_MAX_AGE_MS old", async () => {
    let bob: AgentIdentity = generateIdentityWithEncryption("a2a://bob");
    let asked = 0;
    let now = 1_000_000;
    const keys = new RecipientKeys(
      alice,
      async () => {
        asked += 1;
        return { agents: [createAgentProfile(bob)], truncated: false, unverified: 0 };
      },
      () => now,
    );
    const first = await keys.recipients([alice.id, "a2a://bob"]);
    expect(first.map((r) => r.publicKey)).toEqual([
      alice.encryption!.publicKey,
      bob.encryption!.publicKey,
    ]);
    const old = bob.encryption!.publicKey;
    bob = rotateEncryptionKey(bob).identity;
    now += SEALING_KEY_MAX_AGE_MS - 1;
    expect((await keys.recipients(["a2a://bob"]))[0]?.publicKey).toEqual(old);
    now += 2;
    expect((await keys.recipients(["a2a://bob"]))[0]?.publicKey).toEqual(bob.encryption!.publicKey);
    expect(asked).toBe(2);
  });

  it("a forged profile, or one publishing no key, gives sealing_key_unknown", async () => {
    const bob = generateIdentityWithEncryption("a2a://bob");
    const mallory = generateIdentityWithEncryption("a2a://mallory");
    const net = new MemoryNetwork();
    const link = net.link(alice.id, alice.publicKey, createAgentProfile(alice));
    // Bob's card, but with mallory's encryption key slipped in: its self-signature no longer verifies.
    const forged = {
      ...createAgentProfile(bob),
      encryptionKey: Buffer.from(mallory.encryption!.publicKey).toString("base64"),
    };
    net.link(bob.id, bob.publicKey, forged);
    const { encryption: _none, ...carolPlain } = generateIdentityWithEncryption("a2a://carol");
    net.link(carolPlain.id, carolPlain.publicKey, createAgentProfile(carolPlain));
    const keys = new RecipientKeys(alice, link.findAgents, Date.now);
    for (const id of [bob.id, carolPlain.id, "a2a://nobody"]) {
      await expect(keys.recipients([id])).rejects.toMatchObject({ code: "sealing_key_unknown" });
    }
  });
});

describe("§8.4 retired keys on disk", () => {
  it("saves with mode 0600 and loads only the keys still in their grace period", async () => {
    const dir = tempDir("ocp-retired-");
    try {
      const path = join(dir.dir, "agent.retired.json");
      const now = Date.now();
      const fresh = rotateEncryptionKey(alice, now - 1000).retired!;
      const stale = {
        ...rotateEncryptionKey(alice).retired!,
        retiredAt: now - ENCRYPTION_KEY_GRACE_MS - 1,
      };
      expect(await loadRetiredKeys(path, now)).toEqual([]);
      await saveRetiredKeys(path, [fresh, stale], now);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(await loadRetiredKeys(path, now)).toEqual([fresh]);
      expect(await loadRetiredKeys(path, now + ENCRYPTION_KEY_GRACE_MS)).toEqual([]);
    } finally {
      dir.cleanup();
    }
  });
});
