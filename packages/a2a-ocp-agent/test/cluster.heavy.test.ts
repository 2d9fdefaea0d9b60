/** The agent runtime over three `ocp-hub --nats` processes on one real `nats-server`. */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { natsCluster } from "@ocp/testkit/nats";
import { afterAll, beforeAll, describe } from "vitest";
import { agentFeatureTests } from "./cluster-features.js";

const hubPackage = createRequire(import.meta.url).resolve("@ocp/a2a-ocp-hub/package.json");
const cluster = natsCluster(join(dirname(hubPackage), "dist/cli.js"), "agent-cluster-test");
// A nats-server and three hub processes, each bounded on its own (20 s) by the test kit.
beforeAll(() => cluster.start(), 120_000);
afterAll(() => cluster.stop(), 60_000);

describe("OCPAgent runtime across three hubs", { timeout: 60_000 }, () => {
  agentFeatureTests(cluster);
});
