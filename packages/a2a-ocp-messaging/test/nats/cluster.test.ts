import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HubClient } from "../../src/hub/index.js";
import { client, identity, node, tempDir, until } from "../hub/support.js";
import {
  type HubProcess,
  type NatsServer,
  startClusterHub,
  startNatsServer,
  stopProcess,
} from "./support.js";

const WORKSPACE = "cluster-test";
const transport = { reconnectBaseMs: 50, reconnectMaxMs: 500 };
const dir = tempDir("ocp-nats-");
let nats: NatsServer;
const hubs: HubProcess[] = [];
const clients: HubClient[] = [];

beforeAll(async () => {
  nats = await startNatsServer(dir.dir);
  for (let i = 0; i < 3; i++) hubs.push(await startClusterHub(nats.url, WORKSPACE));
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await Promise.all(hubs.map((hub) => stopProcess(hub.child)));
  await nats?.stop();
  dir.cleanup();
});

async function join(name: string, hub: number, options = {}) {
  const id = identity(name);
  const joined = await client(hubs[hub]!.url, id, { transport, ...options });
  clients.push(joined.client);
  return { id, ...joined };
}

describe("hubs clustered on NATS JetStream", () => {
  it("delivers a direct message from an agent on one hub to an agent on another, committed and in sequence", async () => {
    const alice = await join("alice", 0);
    const bob = await join("bob", 1);
    const receipt = await alice.client.send({
      type: "ocp.knowledge.stream",
      to: bob.id.id,
      payload: {
        streamId: "s",
        nodes: [node(alice.id.id, "n1")],
        isIncremental: true,
        sequenceNumber: 1,
      },
    });
    expect(receipt).toMatchObject({ durable: true, recipients: 1, duplicate: false });
    await until(() => bob.received.length === 1, "bob's delivery");
    expect(bob.received[0]?.seq).toBe(1);
    expect(bob.received[0]?.message.from).toBe(alice.id.id);
  });
});
