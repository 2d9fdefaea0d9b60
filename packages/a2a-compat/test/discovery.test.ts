import type { AgentCard } from "@a2a-js/sdk";
import type { OCPHub } from "@ocp/a2a-ocp-hub";
import { createAgentProfile } from "@ocp/a2a-ocp-messaging";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { client, identity } from "@ocp/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentDirectory, CardResolver } from "../src/index.js";
import { CARD_PROFILE_FIELD } from "../src/internal.js";
import { ocpAgent, startHub, type TestAgent, tempDir, until, within } from "./support.js";

const plainCard: AgentCard = {
  name: "Plain",
  description: "A plain A2A agent",
  supportedInterfaces: [
    {
      url: "http://127.0.0.1:9/rpc",
      protocolBinding: "JSONRPC",
      tenant: "",
      protocolVersion: "1.0",
    },
  ],
  provider: undefined,
  version: "1.0.0",
  capabilities: { extensions: [] },
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: [],
  defaultOutputModes: [],
  skills: [],
  signatures: [],
};

describe("§7.3 discovery: the hub keeps the cards of registered agents", () => {
  const tmp = tempDir("ocp-a2a-discovery-");
  let hub: OCPHub;
  let directory: AgentDirectory;
  let alice: TestAgent;
  let carol: TestAgent;
  let erin: TestAgent;
  const plainId = identity("plain");
  const malloryId = identity("mallory");

  beforeAll(async () => {
    hub = await startHub(tmp.dir);
    directory = new AgentDirectory(hub);
    alice = await ocpAgent(hub.url, "alice", { workspace: "acme-engineering" });
    carol = await ocpAgent(hub.url, "carol", {
      workspace: "acme-engineering",
      features: ["knowledge_streaming", "awareness_beacon"],
    });
    erin = await ocpAgent(hub.url, "erin", { workspace: "globex" });
    const plain = await client(hub.url, plainId, {
      profile: createAgentProfile(
        plainId,
        { extra: { [CARD_PROFILE_FIELD]: plainCard } },
        nativeEd25519,
      ),
    });
    await plain.client.close();
    // A signed profile whose card claims to be alice's: the card is not believed.
    const mallory = await client(hub.url, malloryId, {
      profile: createAgentProfile(
        malloryId,
        { extra: { [CARD_PROFILE_FIELD]: alice.card } },
        nativeEd25519,
      ),
    });
    await mallory.client.close();
  });

  afterAll(async () => {
    await alice.close();
    await carol.close();
    await erin.close().catch(() => {});
    await hub.close();
    tmp.cleanup();
  });

  const ids = (agents: { id: string }[]) => agents.map((a) => a.id).sort();

  it("§7.3 findAgents filters by protocol", async () => {
    // mallory's card is ignored, but its signed profile still claims a2a+ocp (with no feature).
    expect(ids(await directory.findAgents({ protocols: ["a2a+ocp"] }))).toEqual(
      ids([alice.identity, carol.identity, erin.identity, malloryId]),
    );
    expect(ids(await directory.findAgents({ protocols: ["a2a"] }))).toEqual(
      ids([alice.identity, carol.identity, erin.identity, plainId, malloryId]),
    );
  });

  it("§7.3 findAgents filters by feature", async () => {
    expect(ids(await directory.findAgents({ features: ["consensus_voting"] }))).toEqual(
      ids([alice.identity, erin.identity]),
    );
    expect(
      ids(await directory.findAgents({ features: ["knowledge_streaming", "awareness_beacon"] })),
    ).toEqual(ids([alice.identity, carol.identity, erin.identity]));
  });

  it("§7.3 findAgents filters by workspace, and all filters combine", async () => {
    expect(ids(await directory.findAgents({ workspace: "acme-engineering" }))).toEqual(
      ids([alice.identity, carol.identity]),
    );
    const found = await directory.findAgents({
      protocols: ["a2a+ocp"],
      features: ["knowledge_streaming"],
      workspace: "acme-engineering",
    });
    expect(ids(found)).toEqual(ids([alice.identity, carol.identity]));
    expect(
      ids(
        await directory.findAgents({
          features: ["collective_query"],
          workspace: "acme-engineering",
        }),
      ),
    ).toEqual([alice.identity.id]);
    expect(await directory.findAgents({ workspace: "nowhere" })).toEqual([]);
  });

  it("describes each agent from its card: name, features, endpoints", async () => {
    const found = await directory.getAgent(carol.identity.id);
    expect(found).toMatchObject({
      name: "carol",
      workspace: "acme-engineering",
      connected: true,
      features: ["knowledge_streaming", "awareness_beacon"],
    });
    const ocp = found?.card?.capabilities["ocp"] as
      | { endpoints: { websocket: string } }
      | undefined;
    expect(ocp?.endpoints.websocket).toBe(hub.url);
    const mallory = await directory.getAgent(malloryId.id);
    expect(mallory?.card).toBeUndefined();
    expect(mallory?.features).toEqual([]);
  });

  it("keeps the cards of agents that disconnected; connectedOnly leaves them out", async () => {
    await erin.close();
    await until(() => !hub.connectedAgents().includes(erin.identity.id), "erin to disconnect");
    expect(ids(await directory.findAgents({ workspace: "globex" }))).toEqual([erin.identity.id]);
    expect(await directory.findAgents({ workspace: "globex", connectedOnly: true })).toEqual([]);
  });

  it("feeds a CardResolver without HTTP (lookup), which sees OCP in the registered card", async () => {
    const resolver = new CardResolver({ lookup: (id) => directory.cardOf(id) });
    const resolved = await within(resolver.resolve(carol.identity.id));
    expect(resolved.ocp?.features).toEqual(["knowledge_streaming", "awareness_beacon"]);
    const plain = await within(resolver.resolve(plainId.id));
    expect(plain.ocp).toBeUndefined();
    expect(plain.protocols).toEqual(["a2a"]);
  });
});
