/**
 * Hubs clustered on NATS JetStream (issue 11): a real `nats-server` with
 * JetStream, three `ocp-hub --nats` processes, agents spread across them.
 * The failover test kills one hub with SIGKILL and runs last.
 */
import { afterAll, beforeAll, describe } from "vitest";
import type { HubClient } from "../../src/hub/index.js";
import { client, identity, tempDir } from "../hub/support.js";
import { agentFeatureTests } from "./agent-features.js";
import { type ClusterContext, transport } from "./context.js";
import { failoverTests } from "./failover.js";
import { hubFeatureTests } from "./hub-features.js";
import { storeContractTests } from "./store-contract.js";
import {
  type HubProcess,
  type NatsServer,
  requireNatsServer,
  startClusterHub,
  startNatsServer,
  stopProcess,
} from "./support.js";

requireNatsServer();

const WORKSPACE = "cluster-test";
const dir = tempDir("ocp-nats-");
let nats: NatsServer | undefined;
const hubs: HubProcess[] = [];
const clients: HubClient[] = [];
const closers: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  nats = await startNatsServer(dir.dir);
  for (let i = 0; i < 3; i++) hubs.push(await startClusterHub(nats.url, WORKSPACE));
});

afterAll(async () => {
  await Promise.all(closers.map((close) => close().catch(() => undefined)));
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await Promise.all(hubs.map((hub) => stopProcess(hub.child)));
  await nats?.stop();
  dir.cleanup();
});

const ctx: ClusterContext = {
  hubs,
  natsUrl: () => nats?.url ?? "",
  async join(name, hub, options = {}) {
    const id = identity(name);
    const joined = await client(hubs[hub]!.url, id, { transport, ...options });
    clients.push(joined.client);
    return { id, ...joined };
  },
  async rejoin(id, hub, options = {}) {
    const joined = await client(hubs[hub]!.url, id, { transport, ...options });
    clients.push(joined.client);
    return joined;
  },
  onClose(close) {
    closers.push(close);
  },
};

describe("hubs clustered on NATS JetStream: agents on different hubs see one team", () => {
  hubFeatureTests(ctx);
});

describe("OCPAgent runtime across three hubs", () => {
  agentFeatureTests(ctx);
});

describe("JetStreamStore keeps the HubStore contract", () => {
  storeContractTests(ctx);
});

describe("a hub dies (SIGKILL): nothing lost, nothing twice", () => {
  failoverTests(ctx);
});
