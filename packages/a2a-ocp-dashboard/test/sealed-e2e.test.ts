/**
 * §8.4 end to end over a real hub: Alice shares a node with Bob only. The
 * hub's SQLite file, its audit log file and the dashboard's event stream
 * (which shows every visibility here) hold no byte of the node's title or
 * content; Bob's agent has the node; Carol's, subscribed to the same
 * stream, does not. A public node sent alongside is the control: its marker
 * is found where the hub keeps payloads, so the search can find one.
 */
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { type IncomingMessage, request } from "node:http";
import { join } from "node:path";
import { hubLink, OCPAgent } from "@ocp/a2a-ocp-agent";
import { HubClient } from "@ocp/a2a-ocp-client";
import { OCPHub, SqliteAuditLog } from "@ocp/a2a-ocp-hub";
import type { KnowledgeNode } from "@ocp/a2a-ocp-messaging";
import { generateIdentityWithEncryption } from "@ocp/a2a-ocp-messaging/node";
import { sampleNode, tempDir, testHubOptions, until } from "@ocp/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { type Dashboard, startDashboard } from "../src/index.js";

const dir = tempDir("ocp-sealed-");
const cleanup: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of cleanup.reverse()) await close().catch(() => undefined);
  dir.cleanup();
});

/** Every byte of the files in `folder` whose name starts with `prefix` (SQLite main file, WAL, journal). */
function filesBytes(folder: string, prefix: string): Buffer {
  return Buffer.concat(
    readdirSync(folder)
      .filter((name) => name.startsWith(prefix))
      .map((name) => readFileSync(join(folder, name))),
  );
}

/** Records the raw bytes of the dashboard's `/events` stream. */
function recordEvents(dashboard: Dashboard): { bytes: () => Buffer; close: () => void } {
  const chunks: Buffer[] = [];
  let response: IncomingMessage | undefined;
  const req = request(`${dashboard.url}events`, (res) => {
    response = res;
    res.on("data", (chunk: Buffer) => chunks.push(chunk));
  });
  req.on("error", () => undefined);
  req.end();
  return {
    bytes: () => Buffer.concat(chunks),
    close: () => {
      response?.destroy();
      req.destroy();
    },
  };
}

describe("§8.4 a node Alice shares with Bob only crosses the hub sealed", () => {
  it("the SQLite store, the audit log and the dashboard stream hold no byte of it; Bob has it, Carol does not", async () => {
    const audit = new SqliteAuditLog({ path: join(dir.dir, "audit.sqlite") });
    const hub = await OCPHub.start({ ...testHubOptions(dir.dir), audit });
    cleanup.push(() => hub.close());
    const dashboard = await startDashboard(hub, { showAllVisibilities: true, flushIntervalMs: 20 });
    cleanup.push(() => dashboard.close());
    const events = recordEvents(dashboard);
    cleanup.push(async () => events.close());
    await until(() => dashboard.clients() === 1, "the event stream");

    const agent = async (name: string) => {
      const identity = generateIdentityWithEncryption(`a2a://${name}-${randomUUID()}`);
      const client = await HubClient.connect({ url: hub.url, identity });
      const a = new OCPAgent({ identity, link: hubLink(client) }).start();
      const errors: unknown[] = [];
      a.on("error", (e) => errors.push(e));
      cleanup.push(() => a.close());
      return { agent: a, client, errors };
    };
    const alice = await agent("alice");
    const bob = await agent("bob");
    const carol = await agent("carol");
    const sealedOnWire: string[] = [];
    bob.client.on("message", (d) => {
      if ((d.message as { encrypted?: unknown }).encrypted === true) sealedOnWire.push(d.raw);
    });
    for (const reader of [bob, carol]) {
      await reader.agent.subscribe(alice.agent.id, { deliveryMode: "push" });
      await reader.agent.beacon({ status: "idle", availability: "available" });
      await until(() => alice.agent.presence.get(reader.agent.id) !== undefined, "subscribed");
    }

    const marker = `SEALED-${randomUUID()}`;
    const contentMarker = `CONTENT-${randomUUID()}`;
    const publicMarker = `PUBLIC-${randomUUID()}`;
    const secret: KnowledgeNode = {
      ...sampleNode({
        createdBy: alice.agent.id,
        visibility: "private",
        sharedWith: [bob.agent.id],
      }),
      title: `db failover fix ${marker}`,
      content: `restart the replica with ${contentMarker}`,
    };
    const control: KnowledgeNode = {
      ...sampleNode({ createdBy: alice.agent.id, visibility: "public" }),
      title: `public note ${publicMarker}`,
    };
    await alice.agent.streamKnowledge([secret]);
    await alice.agent.streamKnowledge([control]);
    await until(() => bob.agent.node(secret.id) !== undefined, "bob has the shared node");
    await until(() => carol.agent.node(control.id) !== undefined, "carol has the public node");
    await until(() => events.bytes().includes(publicMarker), "the control on the dashboard");

    expect(bob.agent.node(secret.id)?.title).toBe(secret.title);
    expect(bob.agent.node(secret.id)?.content).toBe(secret.content);
    expect(carol.agent.node(secret.id)).toBeUndefined();
    expect(sealedOnWire.length).toBeGreaterThan(0);
    for (const raw of sealedOnWire) expect(raw).not.toContain(marker);
    expect([...alice.errors, ...bob.errors, ...carol.errors]).toEqual([]);

    await Promise.all([alice, bob, carol].map((a) => a.agent.close()));
    events.close();
    await dashboard.close();
    await hub.close();
    await audit.close();
    const store = filesBytes(dir.dir, "hub.sqlite");
    const auditBytes = filesBytes(dir.dir, "audit.sqlite");
    const dashboardBytes = events.bytes();
    for (const [where, bytes] of [
      ["the hub's SQLite store", store],
      ["the audit log", auditBytes],
      ["the dashboard's event stream", dashboardBytes],
    ] as const) {
      expect(bytes.length, where).toBeGreaterThan(0);
      expect(bytes.includes(marker), `${where} holds the title`).toBe(false);
      expect(bytes.includes(contentMarker), `${where} holds the content`).toBe(false);
    }
    // Controls: the store keeps readable payloads, and the dashboard shows them.
    expect(store.includes(publicMarker)).toBe(true);
    expect(dashboardBytes.includes(publicMarker)).toBe(true);
    // The audit log recorded the sealed exchange (by its envelope) without its content.
    const sealedId = (JSON.parse(sealedOnWire[0]!) as { id: string }).id;
    expect(auditBytes.includes(sealedId)).toBe(true);
  }, 60_000);
});
