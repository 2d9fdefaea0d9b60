/**
 * §8.4 over a clustered run: two `ocp-hub --nats` processes on one real
 * `nats-server` with JetStream. Alice (hub 0) shares a node with Bob (hub 1)
 * only; afterwards no file of the JetStream store holds a byte of its title
 * or content, Bob's agent has it and Carol's (hub 1, subscribed too) does
 * not. A public node sent alongside is the control: its marker is found in
 * the store, so the search can find a payload kept in clear.
 */
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { HubClient } from "@ocp/a2a-ocp-client";
import type { AgentIdentity, KnowledgeNode } from "@ocp/a2a-ocp-messaging";
import { generateIdentityWithEncryption } from "@ocp/a2a-ocp-messaging/node";
import { sampleNode, tempDir, until } from "@ocp/testkit";
import {
  type HubProcess,
  type NatsServer,
  startClusterHub,
  startNatsServer,
  stopProcess,
} from "@ocp/testkit/nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OCPAgent } from "../src/agent.js";
import { hubLink } from "../src/hub-link.js";

const cli = join(
  dirname(createRequire(import.meta.url).resolve("@ocp/a2a-ocp-hub/package.json")),
  "dist/cli.js",
);
const store = tempDir("ocp-sealed-nats-");
let nats: NatsServer;
const hubs: HubProcess[] = [];
const closers: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  nats = await startNatsServer(store.dir);
  for (let i = 0; i < 2; i++) hubs.push(await startClusterHub(cli, nats.url, "sealed"));
}, 120_000);
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  await Promise.all(hubs.map((hub) => stopProcess(hub.child)));
  await nats?.stop();
  store.cleanup();
}, 60_000);

/** Every byte of every file under `folder`. */
function treeBytes(folder: string): Buffer {
  const parts: Buffer[] = [];
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else parts.push(readFileSync(full));
    }
  };
  walk(folder);
  return Buffer.concat(parts);
}

async function agent(name: string, hub: number) {
  const identity: AgentIdentity = generateIdentityWithEncryption(`a2a://${name}-${randomUUID()}`);
  const client = await HubClient.connect({ url: hubs[hub]!.url, identity });
  const a = new OCPAgent({ identity, link: hubLink(client) }).start();
  closers.push(() => a.close());
  return a;
}

describe("§8.4 a sealed node in a clustered run", { timeout: 60_000 }, () => {
  it("the JetStream store holds no byte of a node Alice shares with Bob; Bob has it, Carol does not", async () => {
    const alice = await agent("alice", 0);
    const bob = await agent("bob", 1);
    const carol = await agent("carol", 1);
    for (const reader of [bob, carol]) {
      await reader.subscribe(alice.id, { deliveryMode: "push" });
      await reader.beacon({ status: "idle", availability: "available" });
      await until(() => alice.presence.get(reader.id) !== undefined, "subscribed");
    }
    const marker = `SEALED-${randomUUID()}`;
    const publicMarker = `PUBLIC-${randomUUID()}`;
    const secret: KnowledgeNode = {
      ...sampleNode({ createdBy: alice.id, visibility: "private", sharedWith: [bob.id] }),
      title: `cache stampede fix ${marker}`,
      content: `set the jitter with ${marker}-content`,
    };
    const control: KnowledgeNode = {
      ...sampleNode({ createdBy: alice.id, visibility: "public" }),
      title: `public note ${publicMarker}`,
    };
    await alice.streamKnowledge([secret]);
    await alice.streamKnowledge([control]);
    await until(() => bob.node(secret.id) !== undefined, "bob has the shared node");
    await until(() => carol.node(control.id) !== undefined, "carol has the public node");
    expect(bob.node(secret.id)?.content).toBe(secret.content);
    expect(carol.node(secret.id)).toBeUndefined();

    const bytes = treeBytes(store.dir);
    expect(bytes.includes(publicMarker), "the control is in the JetStream store").toBe(true);
    expect(bytes.includes(marker), "the JetStream store holds the sealed node").toBe(false);
  });
});
