import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteStore } from "../src/index.js";
import { storeContractTests } from "./store-contract.js";
import { tempDir } from "./support.js";

let dir: { dir: string; cleanup: () => void };
beforeEach(() => {
  dir = tempDir("ocp-store-");
});
afterEach(() => dir.cleanup());

const message = (id: string, recipients: string[], expiresAt = Date.now() + 60_000) => ({
  id,
  sender: "a2a://s",
  raw: `{"id":"${id}"}`,
  expiresAt,
  recipients,
});

const contractDir = tempDir("ocp-store-contract-");
afterAll(() => contractDir.cleanup());
storeContractTests(
  "SqliteStore",
  async () => new SqliteStore({ path: join(contractDir.dir, "c.sqlite") }),
);

describe("SqliteStore", () => {
  it("assigns each recipient a monotonic sequence that survives reopening the file, and detects duplicate ids", async () => {
    const path = join(dir.dir, "s.sqlite");
    const store = new SqliteStore({ path });
    const outcomes = await store.commit([
      message("m1", ["a2a://a", "a2a://b"]),
      message("m2", ["a2a://a"]),
      message("m1", ["a2a://a"]),
    ]);
    expect(outcomes.map((o) => [o.duplicate, o.seqs])).toEqual([
      [
        false,
        [
          ["a2a://a", 1],
          ["a2a://b", 1],
        ],
      ],
      [false, [["a2a://a", 2]]],
      [true, []],
    ]);
    await store.close();
    const reopened = new SqliteStore({ path });
    const [next] = await reopened.commit([message("m3", ["a2a://a"])]);
    expect(next?.seqs).toEqual([["a2a://a", 3]]);
    expect((await reopened.commit([message("m2", ["a2a://a"])]))[0]?.duplicate).toBe(true);
    await reopened.close();
  });

  it("returns pending deliveries after a sequence in order, forgets confirmed ones and sweeps expired ones", async () => {
    const store = new SqliteStore({ path: join(dir.dir, "s.sqlite"), synchronous: "NORMAL" });
    const now = Date.now();
    await store.commit([
      message("m1", ["a2a://a"]),
      message("m2", ["a2a://a"], now + 10),
      message("m3", ["a2a://a"]),
    ]);
    expect((await store.pending("a2a://a", 0, 10, now)).map((p) => p.id)).toEqual([
      "m1",
      "m2",
      "m3",
    ]);
    expect((await store.pending("a2a://a", 1, 1, now)).map((p) => p.raw)).toEqual(['{"id":"m2"}']);
    await store.confirm("a2a://a", 1);
    expect((await store.pending("a2a://a", 0, 10, now)).map((p) => p.seq)).toEqual([2, 3]);
    expect(await store.sweep(now + 20)).toBe(1);
    expect((await store.pending("a2a://a", 0, 10, now)).map((p) => p.seq)).toEqual([3]);
    await store.close();
  });

  it("keeps event subscriptions and agent profiles across reopening", async () => {
    const path = join(dir.dir, "s.sqlite");
    const store = new SqliteStore({ path });
    await store.saveSubscription({
      agentId: "a2a://a",
      subscriptionId: "s1",
      eventTypes: ["code.*"],
      filters: { env: "prod" },
    });
    await store.saveSubscription({ agentId: "a2a://a", subscriptionId: "s2", eventTypes: ["x"] });
    await store.removeSubscription("a2a://a", "s2");
    await store.close();
    const reopened = new SqliteStore({ path });
    expect(await reopened.subscriptions()).toEqual([
      {
        agentId: "a2a://a",
        subscriptionId: "s1",
        eventTypes: ["code.*"],
        filters: { env: "prod" },
      },
    ]);
    expect(await reopened.agents()).toEqual([]);
    await reopened.close();
  });
});
