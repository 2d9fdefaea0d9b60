import { describe, expect, it } from "vitest";
import { generateIdentity } from "../src/index.js";
import {
  checkItemClaimSync,
  claimAllowed,
  itemSigner,
  itemSignerSync,
  signAuthorship,
} from "../src/internal.js";
import { ALL_BACKENDS } from "./support/backends.js";

const alice = generateIdentity("a2a://alice.example");
const bob = generateIdentity("a2a://bob.example");
const mallory = generateIdentity("a2a://mallory.example");
const keys = new Map([
  [alice.id, alice.publicKey],
  [bob.id, bob.publicKey],
  [mallory.id, mallory.publicKey],
]);
const keyOf = (id: string) => keys.get(id);

const node = {
  id: "n-1",
  type: "fact",
  title: "Deploys freeze on Fridays",
  data: { reason: "on-call" },
  confidence: 0.9,
  timestamp: "2026-01-01T00:00:00.000Z",
  createdBy: alice.id,
  tags: ["ops"],
  ocpVersion: { [alice.id]: 1 },
  ocpEditors: [bob.id],
};

describe("author signatures over a node (ocpAuthorship)", () => {
  it("a node signed by its author verifies as the author's, sync and async alike", async () => {
    const signed = signAuthorship(node, alice.id, alice.secretKey);
    expect(itemSignerSync(signed, bob.id, keyOf)).toEqual({ ok: true, value: alice.id });
    expect(await itemSigner(signed, bob.id, async (id) => keyOf(id))).toEqual({
      ok: true,
      value: alice.id,
    });
  });

  it("every backend verifies what another signed", () => {
    for (const signer of ALL_BACKENDS)
      for (const verifier of ALL_BACKENDS) {
        const signed = signAuthorship(node, alice.id, alice.secretKey, signer);
        expect(itemSignerSync(signed, bob.id, keyOf, verifier).ok).toBe(true);
      }
  });

  it("a change of the title, createdBy, version, deletion flag or editors breaks the signature", () => {
    const signed = signAuthorship(node, alice.id, alice.secretKey);
    const tampered = [
      { ...signed, title: "Deploys any day" },
      { ...signed, createdBy: mallory.id },
      { ...signed, ocpVersion: { [alice.id]: 9 } },
      { ...signed, ocpDeleted: true },
      { ...signed, ocpEditors: [bob.id, mallory.id] },
      { ...signed, extra: "an added extension field" },
    ];
    for (const item of tampered) {
      const result = itemSignerSync(item, bob.id, keyOf);
      expect(result.ok ? "verified" : result.error.code).toBe("authorship_invalid");
    }
  });

  it("a signature claimed for another signer, an unknown signer or a malformed field is authorship_invalid", async () => {
    const signed = signAuthorship(node, mallory.id, mallory.secretKey);
    const claimed = { ...signed, ocpAuthorship: { ...signed.ocpAuthorship, signer: alice.id } };
    const stranger = signAuthorship(node, "a2a://stranger.example", mallory.secretKey);
    const malformed = { ...node, ocpAuthorship: { signer: alice.id, signature: "x" } };
    for (const item of [claimed, stranger, malformed]) {
      const sync = itemSignerSync(item, bob.id, keyOf);
      const async = await itemSigner(item, bob.id, keyOf);
      expect(sync.ok ? "verified" : sync.error.code).toBe("authorship_invalid");
      expect(async.ok ? "verified" : async.error.code).toBe("authorship_invalid");
    }
    const throwing = await itemSigner(signed, bob.id, () => {
      throw new Error("directory down");
    });
    expect(throwing.ok).toBe(false);
  });

  it("an item without ocpAuthorship carries the authority of the message's sender", () => {
    expect(itemSignerSync(node, alice.id, keyOf)).toEqual({ ok: true, value: alice.id });
  });

  it("re-signing replaces the old signature and signs over the item without it", () => {
    const once = signAuthorship(node, alice.id, alice.secretKey);
    const edited = signAuthorship({ ...once, title: "New title" }, alice.id, alice.secretKey);
    expect(itemSignerSync(edited, bob.id, keyOf)).toEqual({ ok: true, value: alice.id });
  });
});

describe("the stateless claim check (the hub's)", () => {
  it("the author and a listed editor may claim an item; anyone else is not_author", () => {
    expect(claimAllowed(node, alice.id)).toBe(true);
    expect(claimAllowed(node, bob.id)).toBe(true);
    expect(claimAllowed(node, mallory.id)).toBe(false);
    expect(claimAllowed({ id: "e-1", source: "a", target: "b" }, mallory.id)).toBe(true);
  });

  it("a node of another author sent unsigned, or signed by a third agent, is not_author", () => {
    const code = (r: ReturnType<typeof checkItemClaimSync>) => (r.ok ? "ok" : r.error.code);
    expect(code(checkItemClaimSync(node, mallory.id, keyOf))).toBe("not_author");
    const byMallory = signAuthorship(node, mallory.id, mallory.secretKey);
    expect(code(checkItemClaimSync(byMallory, mallory.id, keyOf))).toBe("not_author");
    const forged = {
      ...byMallory,
      ocpAuthorship: { ...byMallory.ocpAuthorship, signer: alice.id },
    };
    expect(code(checkItemClaimSync(forged, mallory.id, keyOf))).toBe("authorship_invalid");
  });

  it("a relayed node signed by its author, an editor's own edit and an author's own node pass", () => {
    const relayed = signAuthorship(node, alice.id, alice.secretKey);
    expect(checkItemClaimSync(relayed, mallory.id, keyOf)).toEqual({ ok: true, value: alice.id });
    expect(checkItemClaimSync(node, bob.id, keyOf)).toEqual({ ok: true, value: bob.id });
    expect(checkItemClaimSync(relayed, alice.id, keyOf)).toEqual({ ok: true, value: alice.id });
  });
});
