/**
 * Hubs clustered on NATS JetStream: a real `nats-server` with JetStream,
 * three `ocp-hub --nats` processes, agents spread across them. The failover
 * test kills one hub with SIGKILL and runs last.
 */
import { fileURLToPath } from "node:url";
import { connect } from "@nats-io/transport-node";
import { natsCluster } from "@ocp/testkit/nats";
import { afterAll, beforeAll, describe } from "vitest";
import { JetStreamStore } from "../../src/nats/jetstream-store.js";
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

describe("a hub dies (SIGKILL): nothing lost, nothing twice", { timeout: 120_000 }, () => {
  failoverTests(cluster);
});
