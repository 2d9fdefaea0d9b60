/**
 * Hubs clustered on NATS JetStream: a real `nats-server` with JetStream,
 * three `ocp-hub --nats` processes, agents spread across them. The failover
 * test kills one hub with SIGKILL and runs last.
 */
import { fileURLToPath } from "node:url";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect, nanos } from "@nats-io/transport-node";
import { natsCluster } from "@ocp/testkit/nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JetStreamStore } from "../../src/nats/jetstream-store.js";
import { NATS_INBOX_MAX_AGE_MS } from "../../src/nats/limits.js";
import { Subjects } from "../../src/nats/subjects.js";
import { storeContractTests } from "../store-contract.js";
import { failoverTests } from "./failover.js";
import { hubFeatureTests } from "./hub-features.js";

const cluster = natsCluster(
  fileURLToPath(new URL("../../dist/cli.js", import.meta.url)),
  "cluster-test",
);
// A nats-server and three hub processes, each bounded on its own (20 s) by the test kit.
beforeAll(() => cluster.start(), 120_000);
afterAll(() => cluster.stop(), 60_000);

describe("hubs clustered on NATS JetStream: agents on different hubs see one team", {
  timeout: 60_000,
}, () => {
  hubFeatureTests(cluster);
});

storeContractTests("JetStreamStore", async () =>
  JetStreamStore.open({
    connection: await connect({ servers: cluster.natsUrl() }),
    ownsConnection: true,
    subjects: new Subjects("contract"),
  }),
);

describe("JetStreamStore retention", () => {
  it("keeps inbox deliveries as long as a message may live, and raises an older stream's shorter max_age", async () => {
    const connection = await connect({ servers: cluster.natsUrl() });
    const subjects = new Subjects("retention");
    const jsm = await jetstreamManager(connection);
    const [old, fresh] = ["a2a://retention-old", "a2a://retention-new"];
    // An inbox stream as a release with a shorter max_age made it.
    await jsm.streams.add({
      name: subjects.inboxStream(old),
      subjects: [subjects.inbox(old)],
      max_age: nanos(300_000),
      duplicate_window: nanos(120_000),
    });
    const store = await JetStreamStore.open({ connection, ownsConnection: true, subjects });
    try {
      expect(store.retentionMs).toBe(NATS_INBOX_MAX_AGE_MS);
      for (const agent of [old, fresh]) {
        const { config } = await jsm.streams.info(await store.ensureInbox(agent));
        expect(config.max_age).toBe(nanos(NATS_INBOX_MAX_AGE_MS));
        expect(config.duplicate_window).toBe(nanos(NATS_INBOX_MAX_AGE_MS));
      }
    } finally {
      await store.close();
    }
  });
});

describe("JetStreamStore confirmations", () => {
  it("skips confirmed deliveries at once, purges them in a batch, and at the latest on close", async () => {
    const subjects = new Subjects("purges");
    const agent = "a2a://purges-agent";
    const open = async () =>
      JetStreamStore.open({
        connection: await connect({ servers: cluster.natsUrl() }),
        ownsConnection: true,
        subjects,
      });
    const store = await open();
    const other = await open(); // another hub of the same workspace
    const jsm = await jetstreamManager(other.connection);
    const expiresAt = Date.now() + 60_000;
    const stored = (id: string) => ({
      id,
      sender: "a2a://s",
      raw: `{"id":"${id}"}`,
      expiresAt,
      recipients: [agent],
    });
    try {
      await store.commit(["p1", "p2", "p3", "p4"].map(stored));
      await store.confirm(agent, 3);
      expect((await store.pending(agent, 0, 10, Date.now())).map((p) => p.seq)).toEqual([4]);
      // Not purged yet: the stream still holds them (another hub replays them from 0).
      const stream = subjects.inboxStream(agent);
      expect((await jsm.streams.info(stream)).state.first_seq).toBe(1);
      expect((await other.pending(agent, 0, 10, Date.now())).map((p) => p.seq)).toEqual([
        1, 2, 3, 4,
      ]);
      // Beyond the last sequence: clamped, the next delivery still gets the next number.
      await store.confirm(agent, 99);
      expect(await store.pending(agent, 0, 10, Date.now())).toEqual([]);
      await store.close();
      expect((await jsm.streams.info(stream)).state.first_seq).toBe(5);
      expect(await other.pending(agent, 0, 10, Date.now())).toEqual([]);
      const next = await other.commit([stored("p5")]);
      expect(next[0]?.seqs).toEqual([[agent, 5]]);
    } finally {
      await store.close();
      await other.close();
    }
  });
});

describe("a hub dies (SIGKILL): nothing lost, nothing twice", { timeout: 120_000 }, () => {
  failoverTests(cluster);
});
