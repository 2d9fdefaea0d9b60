import { HubClient } from "@ocp/a2a-ocp-client";
import { type AgentIdentity, createAgentProfile, verifyAgentProfile } from "@ocp/a2a-ocp-messaging";
import { DISCOVERY_MAX_CARDS } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { rawAgent } from "@ocp/testkit";
import type { OcpError } from "@ocp/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OCPHub } from "../src/index.js";
import { HUB_DISCOVERY_QUERIES_PER_MINUTE } from "../src/limits.js";
import { identity, startHub, tempDir, until } from "./support.js";

const tmp = tempDir("ocp-discovery-");
let hub: OCPHub;
const clients: HubClient[] = [];

function card(features: string[], extra: Record<string, unknown>) {
  return {
    capabilities: {
      tasks: [],
      tools: [],
      protocols: ["a2a", "a2a+ocp"],
      ocp: { version: "1.0.0", features, endpoints: {} },
    },
    ...extra,
  };
}

/** Registers `name` with a card of the given fields; stays connected unless `leave`. */
async function join(name: string, extra: Record<string, unknown>, leave = false) {
  const id = identity(name);
  ids[name] = id.id;
  const profile = createAgentProfile(id, { extra }, nativeEd25519);
  if (typeof extra["team"] === "string") teams[id.id] = extra["team"];
  const client = await HubClient.connect({ url: hub.url, identity: id, profile, reconnect: false });
  if (leave) await client.close();
  else clients.push(client);
  return { id, client, profile };
}

let red: { id: AgentIdentity; client: HubClient };
let blue: { id: AgentIdentity; client: HubClient };
let loner: { id: AgentIdentity; client: HubClient };
const ids: Record<string, string> = {};

/** Teams as an embedder's `teamOf` grants them (the cards' own `team` fields grant nothing). */
const teams: Record<string, string> = {};

beforeAll(async () => {
  hub = await startHub(tmp.dir, { teamOf: (agentId) => teams[agentId] });
  red = await join(
    "red",
    card(["knowledge_streaming", "collective_query"], {
      workspace: "acme-engineering",
      team: "red",
      visibility: "workspace",
    }),
  );
  blue = await join(
    "blue",
    card(["knowledge_streaming"], { workspace: "acme-engineering", team: "blue" }),
  );
  loner = await join("loner", { workspace: "acme-engineering" });
  await Promise.all([
    // Seen by team red only.
    join(
      "red-mate",
      card(["knowledge_streaming"], {
        workspace: "acme-engineering",
        team: "red",
        visibility: "team",
      }),
    ),
    // Seen by nobody but itself and `sharedWith`.
    join(
      "secret",
      card(["knowledge_streaming"], {
        workspace: "acme-engineering",
        visibility: "private",
        sharedWith: [blue.id.id],
      }),
    ),
    // Not one of the four levels: fails closed.
    join(
      "odd",
      card(["knowledge_streaming"], { workspace: "acme-engineering", visibility: "everyone" }),
    ),
    // Registered, then offline: still in the directory.
    join(
      "sleeper",
      card(["knowledge_streaming", "event_publishing"], {
        workspace: "acme-engineering",
        visibility: "public",
      }),
      true,
    ),
    join("elsewhere", card(["knowledge_streaming"], { workspace: "acme-sales" })),
  ]);
}, 30_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await hub?.close();
  tmp.cleanup();
});

const names = (result: { agents: Array<{ id: string }> }) =>
  result.agents.map((a) => Object.keys(ids).find((k) => ids[k] === a.id) ?? a.id).sort();

describe("§7.3 discovery over the wire (ocp.hub.discovery.query)", () => {
  it("matches protocols, features and workspace, and hides cards by §8.5 visibility", async () => {
    const query = {
      protocols: ["a2a+ocp"],
      features: ["knowledge_streaming"],
      workspace: "acme-engineering",
    };
    expect(names(await red.client.findAgents(query))).toEqual([
      "blue",
      "red",
      "red-mate",
      "sleeper",
    ]);
    // blue: not in team red; in the private card's sharedWith.
    expect(names(await blue.client.findAgents(query))).toEqual([
      "blue",
      "red",
      "secret",
      "sleeper",
    ]);
    // Two features: only red declares both.
    const both = await blue.client.findAgents({
      features: ["knowledge_streaming", "collective_query"],
    });
    expect(names(both)).toEqual(["red"]);
    // The loner declares no features: found without a feature criterion only.
    expect(names(await red.client.findAgents({ workspace: "acme-engineering" }))).toContain(
      "loner",
    );
    expect(names(await red.client.findAgents({ workspace: "acme-sales" }))).toEqual(["elsewhere"]);
    expect(names(await red.client.findAgents({ protocols: ["a2a+ocp", "mcp"] }))).toEqual([]);
  });

  it("hands out the cards as the agents signed them, verified, extension fields included", async () => {
    const result = await loner.client.findAgents({ features: ["event_publishing"] });
    expect(result).toMatchObject({ truncated: false, unverified: 0 });
    const [sleeper] = result.agents;
    expect(sleeper?.id).toBe(ids["sleeper"]);
    expect(verifyAgentProfile(sleeper, nativeEd25519).ok).toBe(true);
    expect((sleeper as Record<string, unknown>)["capabilities"]).toMatchObject({
      ocp: { features: ["knowledge_streaming", "event_publishing"] },
    });
    expect(hub.connectedAgents()).not.toContain(ids["sleeper"]);
  });

  it("sends at most `limit` cards and says more matched", async () => {
    const all = await red.client.findAgents({});
    expect(all.truncated).toBe(false);
    const two = await red.client.findAgents({ limit: 2 });
    expect(two.agents.map((a) => a.id)).toEqual(all.agents.slice(0, 2).map((a) => a.id));
    expect(two.truncated).toBe(true);
  });

  it("refuses a malformed query with hub_frame_invalid and keeps the connection", async () => {
    const bad: Array<Record<string, unknown>> = [
      { features: "knowledge_streaming" },
      { protocols: Array.from({ length: 33 }, (_, i) => `p${i}`) },
      { workspace: "" },
      { workspace: "w".repeat(257) },
      { limit: 0 },
      { limit: DISCOVERY_MAX_CARDS + 1 },
      { limit: 1.5 },
      { features: [42] },
    ];
    for (const query of bad) {
      const error = await red.client.findAgents(query as never).then(
        () => undefined,
        (e: OcpError) => e,
      );
      expect(error?.code, JSON.stringify(query).slice(0, 80)).toBe("hub_frame_invalid");
    }
    expect(red.client.connected).toBe(true);
    expect((await red.client.findAgents({ workspace: "acme-sales" })).agents).toHaveLength(1);
  });

  it("answers raw frames: the result carries the queryId; a query without one is refused", async () => {
    const raw = await rawAgent(hub.url, identity("raw"));
    try {
      raw.send(
        '{"protocol":"a2a+ocp","type":"ocp.hub.discovery.query","payload":{"queryId":"q-1","workspace":"acme-sales"}}',
      );
      raw.send('{"protocol":"a2a+ocp","type":"ocp.hub.discovery.query","payload":{}}');
      raw.send(
        '{"protocol":"a2a+ocp","type":"ocp.hub.discovery.query","payload":{"queryId":"q-2","limit":"all"}}',
      );
      await until(() => raw.controls().length === 3, "three answers");
      const [result, noId, badLimit] = raw.controls();
      expect(result).toMatchObject({
        type: "ocp.hub.discovery.result",
        payload: { queryId: "q-1", truncated: false },
      });
      const cards = result?.payload["cards"] as Array<{ id: string }>;
      expect(cards.map((c) => c.id)).toEqual([ids["elsewhere"]]);
      expect(noId).toMatchObject({
        type: "ocp.hub.reject",
        payload: { code: "hub_frame_invalid" },
      });
      expect(noId?.payload["id"]).toBeUndefined();
      expect(badLimit).toMatchObject({ payload: { code: "hub_frame_invalid", id: "q-2" } });
    } finally {
      raw.close();
    }
  });

  it("caps a result's size: big cards come back truncated, never an oversized frame", async () => {
    const big = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        join(`big${i}`, { workspace: "big", ocpNotes: "x".repeat(30_000) }),
      ),
    );
    const result = await big[0]!.client.findAgents({ workspace: "big" });
    expect(result.truncated).toBe(true);
    expect(result.agents.length).toBeGreaterThan(0);
    expect(result.agents.length).toBeLessThan(12);
    expect(result.unverified).toBe(0);
  }, 30_000);

  it("rejects with not_connected once the client is closed", async () => {
    const gone = await join("gone", {}, true);
    await expect(gone.client.findAgents({})).rejects.toMatchObject({ code: "not_connected" });
  });

  it("refuses discovery queries past HUB_DISCOVERY_QUERIES_PER_MINUTE with rate_limited", async () => {
    const raw = await rawAgent(hub.url, identity("greedy"));
    try {
      for (let i = 0; i <= HUB_DISCOVERY_QUERIES_PER_MINUTE; i++) {
        raw.send(
          `{"protocol":"a2a+ocp","type":"ocp.hub.discovery.query","payload":{"queryId":"q-${i}","limit":1}}`,
        );
      }
      const total = HUB_DISCOVERY_QUERIES_PER_MINUTE + 1;
      await until(() => raw.controls().length === total, "every answer");
      const answers = raw.controls();
      expect(answers.filter((c) => c.type === "ocp.hub.discovery.result")).toHaveLength(total - 1);
      expect(answers.at(-1)).toMatchObject({
        type: "ocp.hub.reject",
        payload: { code: "rate_limited", id: `q-${total - 1}` },
      });
      // Other agents are not held back.
      expect((await red.client.findAgents({ limit: 1 })).agents).toHaveLength(1);
    } finally {
      raw.close();
    }
  }, 30_000);
});
