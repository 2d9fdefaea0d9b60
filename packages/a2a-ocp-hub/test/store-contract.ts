import { createAgentProfile, generateIdentity } from "@ocp/a2a-ocp-messaging";
import { MAX_CLOCK_SKEW_MS, MAX_TTL_SECONDS } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HubStore, StoredMessage } from "../src/index.js";
import { longestLifetimeMs } from "../src/store.js";

/**
 * The HubStore contract, one suite for every store (SQLite, JetStream):
 * `open` gives a fresh, empty store; it is closed after the suite.
 */
export function storeContractTests(name: string, open: () => Promise<HubStore>): void {
  describe(`${name} keeps the HubStore contract`, () => {
    let store: HubStore;
    const now = Date.now();
    const stored = (id: string, recipients: string[], expiresAt = now + 60_000): StoredMessage => ({
      id,
      sender: "a2a://sender",
      raw: JSON.stringify({ id, n: id }),
      expiresAt,
      recipients,
    });

    beforeAll(async () => {
      store = await open();
    });
    afterAll(() => store?.close());

    it("gives each recipient its own gapless sequence and reports a recommit of an id as a duplicate", async () => {
      const [a, b] = ["a2a://contract-a", "a2a://contract-b"];
      const first = await store.commit([stored("m1", [a, b]), stored("m2", [a])]);
      expect(first.map((o) => o.seqs)).toEqual([
        [
          [a, 1],
          [b, 1],
        ],
        [[a, 2]],
      ]);
      const again = await store.commit([stored("m1", [a, b]), stored("m3", [b])]);
      expect(again[0]).toMatchObject({ id: "m1", duplicate: true, seqs: [] });
      expect(again[1]).toMatchObject({ duplicate: false, seqs: [[b, 2]] });
      expect((await store.pending(a, 0, 10, Date.now())).map((p) => [p.seq, p.id])).toEqual([
        [1, "m1"],
        [2, "m2"],
      ]);
    });

    it("keeps the exact text of a message for several recipients, non-ASCII included, in each inbox", async () => {
      const [d, e, f] = ["a2a://contract-u1", "a2a://contract-u2", "a2a://contract-u3"];
      const raw = JSON.stringify({ id: "u1", title: "Größe 😀 — naïve", n: "\u2028" });
      await store.commit([{ ...stored("u1", [d, e, f]), raw }]);
      for (const agent of [d, e, f]) {
        expect((await store.pending(agent, 0, 10, Date.now())).map((p) => p.raw)).toEqual([raw]);
      }
    });

    it("resumes after a sequence, pages, skips expired deliveries and forgets confirmed ones", async () => {
      const c = "a2a://contract-c";
      await store.commit([
        stored("c1", [c]),
        stored("c2", [c], now - 1),
        stored("c3", [c]),
        stored("c4", [c]),
      ]);
      expect((await store.pending(c, 0, 10, Date.now())).map((p) => p.id)).toEqual([
        "c1",
        "c3",
        "c4",
      ]);
      expect((await store.pending(c, 2, 1, Date.now())).map((p) => p.id)).toEqual(["c3"]);
      await store.confirm(c, 3);
      expect((await store.pending(c, 0, 10, Date.now())).map((p) => p.seq)).toEqual([4]);
      await store.confirm(c, 99);
      const next = await store.commit([stored("c5", [c])]);
      expect(next[0]?.seqs).toEqual([[c, 5]]);
    });

    it("pins an agent's first key, keeps its latest profile and its subscriptions", async () => {
      const id = generateIdentity("a2a://contract-pinned");
      const profile = createAgentProfile(id, {}, nativeEd25519);
      await store.saveAgent(profile);
      const listed = (await store.agents()).find((p) => p.id === id.id);
      expect(listed?.publicKey).toBe(profile.publicKey);
      const other = { ...generateIdentity("a2a://contract-other"), id: id.id };
      await expect(
        store.saveAgent(createAgentProfile(other, {}, nativeEd25519)),
      ).rejects.toMatchObject({ code: "invalid_profile" });
      expect((await store.agents()).find((p) => p.id === id.id)?.publicKey).toBe(profile.publicKey);
      await store.saveSubscription({
        agentId: id.id,
        subscriptionId: "s1",
        eventTypes: ["code.*"],
      });
      await store.saveSubscription({
        agentId: id.id,
        subscriptionId: "s2",
        eventTypes: ["bug.**"],
        filters: { a: 1 },
      });
      await store.removeSubscription(id.id, "s1");
      expect((await store.subscriptions()).filter((s) => s.agentId === id.id)).toEqual([
        { agentId: id.id, subscriptionId: "s2", eventTypes: ["bug.**"], filters: { a: 1 } },
      ]);
    });

    it("sweeps expired messages: they are never delivered again", async () => {
      const d = "a2a://contract-d";
      const t = Date.now();
      await store.commit([stored("d1", [d], t + 50), stored("d2", [d], t + 60_000)]);
      await store.sweep(t + 100);
      expect((await store.pending(d, 0, 10, t + 100)).map((p) => p.id)).toEqual(["d2"]);
    });

    it("keeps a delivery until its expiresAt, as far out as a message may live (MAX_TTL_SECONDS)", async () => {
      const e = "a2a://contract-e";
      const t = Date.now();
      const longest = longestLifetimeMs(MAX_CLOCK_SKEW_MS);
      expect(store.retentionMs ?? Number.POSITIVE_INFINITY).toBeGreaterThanOrEqual(longest);
      await store.commit([stored("e1", [e], t + longest), stored("e2", [e])]);
      const day = t + MAX_TTL_SECONDS * 1000;
      await store.sweep(day);
      expect((await store.pending(e, 0, 10, day)).map((p) => p.id)).toEqual(["e1"]);
      expect(await store.pending(e, 0, 10, t + longest)).toEqual([]);
    });
  });
}
