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
beforeAll(() => cluster.start());
afterAll(() => cluster.stop());

describe("hubs clustered on NATS JetStream: agents on different hubs see one team", () => {
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

describe("a hub dies (SIGKILL): nothing lost, nothing twice", () => {
  failoverTests(cluster);
});
