import { HubClient } from "@ocp/a2a-ocp-client";
import { createAgentProfile } from "@ocp/a2a-ocp-messaging";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { describe, expect, it } from "vitest";
import { identity, startHub, tempDir, until } from "./support.js";

/** Agents in the scale test: 1,000 in CI; `OCP_HUB_SCALE_AGENTS` overrides it locally. */
const AGENTS = Number(process.env["OCP_HUB_SCALE_AGENTS"] ?? 1000);
const PER_AGENT = 20;
const CONNECT_CONCURRENCY = 50;

describe("hub scale", () => {
  it(`${AGENTS} agents each send ${PER_AGENT} messages: every delivery counted by sequence, nothing lost or duplicated`, async () => {
    const dir = tempDir("ocp-hub-scale-");
    const hub = await startHub(dir.dir, { synchronous: "NORMAL" });
    const ids = Array.from({ length: AGENTS }, () => identity("scale"));
    const profiles = ids.map((id) => createAgentProfile(id, {}, nativeEd25519));
    const received = ids.map(() => [] as Array<{ seq: number; from: string; n: number }>);
    const clients: HubClient[] = [];
    try {
      for (let start = 0; start < AGENTS; start += CONNECT_CONCURRENCY) {
        const batch = ids.slice(start, start + CONNECT_CONCURRENCY).map(async (id, k) => {
          const index = start + k;
          const c = new HubClient({ url: hub.url, identity: id, profile: profiles[index]! });
          c.on("message", (m) =>
            received[index]!.push({
              seq: m.seq ?? -1,
              from: m.message.from,
              n: (m.message.payload as { n: number }).n,
            }),
          );
          await c.connect();
          clients[index] = c;
        });
        await Promise.all(batch);
      }
      expect(hub.stats().connected).toBe(AGENTS);
      for (let start = 0; start < AGENTS; start += CONNECT_CONCURRENCY) {
        await Promise.all(
          clients.slice(start, start + CONNECT_CONCURRENCY).map(async (c, k) => {
            const to = ids[(start + k + 1) % AGENTS]!.id;
            // In order on one connection: the hub sequences them as sent.
            await Promise.all(
              Array.from({ length: PER_AGENT }, (_, k) =>
                c.send({ type: "ocp.custom.scale", to, payload: { n: k + 1 } }),
              ),
            );
          }),
        );
      }
      await until(() => received.every((r) => r.length >= PER_AGENT), "every delivery", 240_000);
      for (let i = 0; i < AGENTS; i++) {
        const r = received[i]!;
        expect(r.map((d) => d.seq)).toEqual(Array.from({ length: PER_AGENT }, (_, k) => k + 1));
        expect(r.map((d) => d.n)).toEqual(Array.from({ length: PER_AGENT }, (_, k) => k + 1));
        expect(new Set(r.map((d) => d.from))).toEqual(
          new Set([ids[(i - 1 + AGENTS) % AGENTS]!.id]),
        );
      }
    } finally {
      await Promise.all(clients.map((c) => c?.close().catch(() => undefined)));
      await hub.close();
      dir.cleanup();
    }
  }, 300_000);
});
