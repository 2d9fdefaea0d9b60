import { AGENT_CARD_PATH } from "@a2a-js/sdk";
import { DefaultAgentCardResolver } from "@a2a-js/sdk/client";
import type { OCPAgent } from "@ocp/a2a-ocp-agent";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAgentCard, OCP_EXTENSION_URI } from "../src/index.js";
import { AgentCardSchema, ocpDeclarationOf, protocolsOf } from "../src/internal.js";
import { A2A_RPC_PATH, A2AServer } from "../src/server.js";
import { team, within } from "./support.js";

describe("§7.1 the agent card of an OCP agent, served at the A2A well-known path", () => {
  let agent: OCPAgent;
  let server: A2AServer;

  beforeAll(async () => {
    [agent] = team(["carded"]) as [OCPAgent];
    server = await A2AServer.start({
      agent,
      name: "Carded agent",
      description: "Knows about WebSockets",
      features: ["knowledge_streaming", "collective_query"],
      endpoints: { websocket: "ws://127.0.0.1:7777/ocp" },
      limits: { maxSubscriptions: 100, maxConcurrentQueries: 4 },
      workspace: "acme-engineering",
    });
  });

  afterAll(async () => {
    await server.close();
    await agent.close();
  });

  it("§7.1 serves identity, skills, protocols and the ocp block at /.well-known/agent-card.json", async () => {
    expect(server.cardUrl).toBe(`${server.url}/${AGENT_CARD_PATH}`);
    const response = await within(fetch(server.cardUrl));
    expect(response.status).toBe(200);
    const card = (await response.json()) as {
      id: string;
      name: string;
      supportedInterfaces: Record<string, unknown>[];
      capabilities: Record<string, unknown>;
      skills: { id: string }[];
    };
    expect(card["id"]).toBe(agent.id);
    expect(card["name"]).toBe("Carded agent");
    expect(card["supportedInterfaces"][0]).toMatchObject({
      url: `${server.url}${A2A_RPC_PATH}`,
      protocolBinding: "JSONRPC",
      protocolVersion: "1.0",
    });
    expect(card["capabilities"]["protocols"]).toEqual(["a2a", "a2a+ocp"]);
    expect(card["capabilities"]["ocp"]).toEqual({
      version: "1.0.0",
      features: ["knowledge_streaming", "collective_query"],
      endpoints: { websocket: "ws://127.0.0.1:7777/ocp", http: `${server.url}${A2A_RPC_PATH}` },
      limits: { maxSubscriptions: 100, maxConcurrentQueries: 4 },
      workspace: "acme-engineering",
    });
    expect(card.skills.map((s) => s.id)).toEqual(["receive_knowledge", "search_and_respond"]);
  });

  it("§7.1 declares OCP the A2A way: an extension URI whose params are version, features, endpoints and limits (read by the SDK's resolver)", async () => {
    const card = await within(new DefaultAgentCardResolver().resolve(server.url));
    const extension = card.capabilities?.extensions.find((e) => e.uri === OCP_EXTENSION_URI);
    expect(extension?.required).toBe(false);
    expect(extension?.params).toMatchObject({
      version: "1.0.0",
      features: ["knowledge_streaming", "collective_query"],
      endpoints: { websocket: "ws://127.0.0.1:7777/ocp" },
      limits: { maxSubscriptions: 100, maxConcurrentQueries: 4 },
    });
  });

  it("reads OCP from either form, and not from a card of another major version or none", () => {
    const full = AgentCardSchema.parse(
      buildAgentCard({ id: "a2a://x", name: "x", url: "http://127.0.0.1:1/rpc" }),
    );
    expect(ocpDeclarationOf(full)?.features.length).toBe(6);
    expect(protocolsOf(full)).toEqual(["a2a", "a2a+ocp"]);
    const extensionOnly = AgentCardSchema.parse({
      name: "e",
      capabilities: {
        extensions: [
          {
            uri: OCP_EXTENSION_URI,
            params: { version: "1.2.0", features: ["collective_query", "telepathy"] },
          },
        ],
      },
    });
    expect(ocpDeclarationOf(extensionOnly)?.version).toBe("1.2.0");
    expect(protocolsOf(extensionOnly)).toEqual(["a2a", "a2a+ocp"]);
    const blockOnly = AgentCardSchema.parse({
      name: "b",
      capabilities: { protocols: ["a2a", "a2a+ocp"], ocp: { version: "1.0.0", features: [] } },
    });
    expect(ocpDeclarationOf(blockOnly)).toBeDefined();
    const nextMajor = AgentCardSchema.parse({
      name: "n",
      capabilities: { protocols: ["a2a", "a2a+ocp"], ocp: { version: "2.0.0", features: [] } },
    });
    expect(ocpDeclarationOf(nextMajor)).toBeUndefined();
    expect(protocolsOf(nextMajor)).toEqual(["a2a"]);
    const plain = AgentCardSchema.parse({ name: "p" });
    expect(ocpDeclarationOf(plain)).toBeUndefined();
    expect(protocolsOf(plain)).toEqual(["a2a"]);
  });
});
