/**
 * The fixture hub's payload log mode (`logPayloads`) shows what a hub sees
 * of §8.4 sealed knowledge: two agents of `@ocp/a2a-ocp-agent` share a
 * private node through it, and every message it routed holds only
 * ciphertext of that node, while a public node sent alongside is logged in
 * clear (the control: the log does show payloads).
 */
import { randomUUID } from "node:crypto";
import { hubLink, OCPAgent } from "@ocp/a2a-ocp-agent";
import { HubClient } from "@ocp/a2a-ocp-client";
import type { KnowledgeNode } from "@ocp/a2a-ocp-messaging";
import { generateIdentityWithEncryption } from "@ocp/a2a-ocp-messaging/node";
import { sampleNode, until } from "@ocp/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { startFixtureHub } from "../src/index.js";

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close().catch(() => undefined);
});

describe("fixture hub, payload log mode", () => {
  it("logs only ciphertext of a node one agent shares with another (and a public node in clear)", async () => {
    const log: { type: string; raw: string }[] = [];
    const hub = await startFixtureHub({ logPayloads: (entry) => log.push(entry) });
    cleanup.push(() => hub.close());
    const agent = async (name: string) => {
      const identity = generateIdentityWithEncryption(`a2a://${name}-${randomUUID()}`);
      const client = await HubClient.connect({ url: hub.url, identity, reconnect: false });
      const a = new OCPAgent({ identity, link: hubLink(client) }).start();
      cleanup.push(() => a.close());
      return a;
    };
    const alice = await agent("alice");
    const bob = await agent("bob");
    await bob.subscribe(alice.id, { deliveryMode: "push" });
    await bob.beacon({ status: "idle", availability: "available" });
    await until(() => alice.presence.get(bob.id) !== undefined, "subscribed");
    const marker = `SEALED-${randomUUID()}`;
    const publicMarker = `PUBLIC-${randomUUID()}`;
    const secret: KnowledgeNode = {
      ...sampleNode({ createdBy: alice.id, visibility: "private", sharedWith: [bob.id] }),
      title: `token leak fix ${marker}`,
    };
    const control: KnowledgeNode = {
      ...sampleNode({ createdBy: alice.id, visibility: "public" }),
      title: `public note ${publicMarker}`,
    };
    await alice.streamKnowledge([secret]);
    await alice.streamKnowledge([control]);
    await until(() => bob.node(secret.id) !== undefined, "bob has the shared node");
    await until(() => bob.node(control.id) !== undefined, "bob has the public node");
    const streams = log.filter((e) => e.type === "ocp.knowledge.stream");
    expect(streams.some((e) => e.raw.includes(publicMarker))).toBe(true);
    const sealed = streams.filter((e) => JSON.parse(e.raw)["encrypted"] === true);
    expect(sealed.length).toBeGreaterThan(0);
    for (const entry of log) expect(entry.raw).not.toContain(marker);
  }, 30_000);
});
