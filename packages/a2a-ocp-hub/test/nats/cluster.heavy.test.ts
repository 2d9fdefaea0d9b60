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

describe("a hub dies (SIGKILL): nothing lost, nothing twice", () => {
  failoverTests(cluster);
});
