/**
 * Discovery and priority across hubs clustered on NATS JetStream: a real
 * `nats-server` and two `ocp-hub --nats` processes; an agent on one hub finds
 * the agents registered on the other, and an agent that comes back gets what
 * was queued for it highest priority first.
 */
import { fileURLToPath } from "node:url";
import { createAgentProfile } from "@ocp/a2a-ocp-messaging";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { identity, until } from "@ocp/testkit";
import { natsCluster } from "@ocp/testkit/nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const cluster = natsCluster(
  fileURLToPath(new URL("../dist/cli.js", import.meta.url)),
  "discovery-cluster",
  2,
);
beforeAll(() => cluster.start(), 120_000);
afterAll(() => cluster.stop(), 60_000);

const card = (extra: Record<string, unknown>) => ({
  capabilities: {
    protocols: ["a2a+ocp"],
    ocp: { version: "1.0.0", features: ["event_publishing"] },
  },
  workspace: "acme-engineering",
  ...extra,
});

async function eventually<T>(probe: () => Promise<T>, ok: (value: T) => boolean, what: string) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("clustered hubs (NATS JetStream)", { timeout: 60_000 }, () => {
  it("an agent on one hub discovers the agents registered on another, with §8.5 card visibility", async () => {
    const aliceId = identity("alice");
    const alice = await cluster.rejoin(aliceId, 0, {
      profile: createAgentProfile(aliceId, { extra: card({ team: "red" }) }, nativeEd25519),
    });
    const bobId = identity("bob");
    await cluster.rejoin(bobId, 1, {
      profile: createAgentProfile(bobId, { extra: card({ team: "red" }) }, nativeEd25519),
    });
    // Open registration: a claimed team grants nothing, so a team-only card is its owner's alone.
    const daveId = identity("dave");
    await cluster.rejoin(daveId, 1, {
      profile: createAgentProfile(
        daveId,
        { extra: card({ team: "red", visibility: "team" }) },
        nativeEd25519,
      ),
    });
    const carolId = identity("carol");
    const carol = await cluster.rejoin(carolId, 1, {
      profile: createAgentProfile(
        carolId,
        { extra: card({ team: "blue", visibility: "private" }) },
        nativeEd25519,
      ),
    });
    const query = { features: ["event_publishing"], workspace: "acme-engineering" };
    const found = await eventually(
      () => alice.client.findAgents(query),
      (r) => r.agents.some((a) => a.id === bobId.id),
      "bob in alice's hub's directory",
    );
    const ids = found.agents.map((a) => a.id);
    expect(ids).toContain(aliceId.id);
    expect(ids).not.toContain(carolId.id); // Private: only carol finds it.
    expect(ids).not.toContain(daveId.id); // Team-only, and no agent has a team here.
    const fromCarol = await eventually(
      () => carol.client.findAgents(query),
      (r) => r.agents.some((a) => a.id === aliceId.id),
      "alice in carol's hub's directory",
    );
    expect(fromCarol.agents.map((a) => a.id)).toContain(carolId.id);
    expect(fromCarol.agents.map((a) => a.id)).toContain(bobId.id);
    expect(fromCarol.agents.map((a) => a.id)).not.toContain(daveId.id);
  });

  it("an agent that comes back to another hub gets its queued messages highest priority first", async () => {
    const bobId = identity("bob-away");
    const first = await cluster.rejoin(bobId, 1, { reconnect: false });
    await first.client.close();
    const alice = await cluster.join("alice-sender", 0);
    const sent: Array<[string, "low" | "normal" | "high" | "urgent"]> = [
      ["a", "low"],
      ["b", "urgent"],
      ["c", "normal"],
      ["d", "high"],
      ["e", "urgent"],
    ];
    for (const [label, priority] of sent) {
      await alice.client.send({
        type: "ocp.custom.note",
        to: bobId.id,
        payload: { label },
        priority,
      });
    }
    const bob = await cluster.rejoin(bobId, 0, { reconnect: false });
    await until(() => bob.received.length === sent.length, "bob's queued messages");
    expect(bob.received.map((d) => (d.message.payload as { label: string }).label)).toEqual([
      "b",
      "e",
      "d",
      "c",
      "a",
    ]);
  });
});
