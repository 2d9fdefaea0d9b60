// An OCP agent next to a plain A2A agent (built with the A2A SDK only):
// discovery at the hub, the fallback to an A2A task, an SDK client calling
// search_and_respond (signed with the caller's key, which alice finds at the
// hub), an anonymous caller turned away, and a feature the peer never
// confirmed.
// Run: pnpm build && node example/a2a-fallback.mjs
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AGENT_CARD_PATH, Role } from "@a2a-js/sdk";
import { ClientFactory } from "@a2a-js/sdk/client";
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import {
  A2AFallback,
  AgentDirectory,
  CardResolver,
  createA2AClient,
  dataPart,
  FeatureNegotiator,
  negotiatedLink,
  profileWithCard,
} from "@ocp/a2a-compat";
import { A2AServer } from "@ocp/a2a-compat/server";
import { hubLink, OCPAgent } from "@ocp/a2a-ocp-agent";
import { HubClient } from "@ocp/a2a-ocp-client";
import { OCPHub } from "@ocp/a2a-ocp-hub";
import { generateIdentity } from "@ocp/a2a-ocp-messaging";
import express from "express";

const dir = mkdtempSync(join(tmpdir(), "ocp-a2a-example-"));
const hub = await OCPHub.start({ dbPath: join(dir, "hub.sqlite") });

// An OCP agent: its A2A server, its card in its signed hub profile, a negotiated link.
async function ocpAgent(name, features) {
  const identity = generateIdentity(`a2a://${name}`);
  const server = await A2AServer.listen();
  const card = server.cardFor({
    id: identity.id,
    name,
    features,
    endpoints: { websocket: hub.url },
    workspace: "acme-engineering",
  });
  const client = await HubClient.connect({
    url: hub.url,
    identity,
    profile: profileWithCard(identity, card),
  });
  const link = hubLink(client);
  const negotiator = new FeatureNegotiator({ identity, link, features });
  const agent = new OCPAgent({ identity, link: negotiatedLink(link, negotiator) }).start();
  server.serve({ agent, card });
  return { identity, agent, server, link, negotiator };
}
const alice = await ocpAgent("alice");
const carol = await ocpAgent("carol", ["knowledge_streaming", "awareness_beacon"]);

// A plain A2A agent: the SDK's server and an executor that knows nothing of OCP.
const app = express();
const http = createServer(app).listen(0, "127.0.0.1");
await once(http, "listening");
const plainUrl = `http://127.0.0.1:${http.address().port}`;
const plainCard = {
  name: "plain",
  description: "A plain A2A agent",
  supportedInterfaces: [
    { url: `${plainUrl}/rpc`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" },
  ],
  version: "1.0.0",
  capabilities: { extensions: [] },
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: ["application/json"],
  defaultOutputModes: ["application/json"],
  skills: [],
  signatures: [],
};
const executor = {
  cancelTask: async () => {},
  execute: async (context, bus) => {
    const { task, input } = context.userMessage.parts.find((p) => p.content?.$case === "data")
      .content.value;
    const value =
      task === "vote_on_proposal"
        ? { proposalId: input.proposalId, vote: "approve", votedBy: "a2a://plain" }
        : { accepted: input.nodes?.length ?? 0 };
    bus.publish(
      AgentEvent.message({
        messageId: crypto.randomUUID(),
        contextId: context.contextId,
        taskId: "",
        role: Role.ROLE_AGENT,
        parts: [dataPart(value)],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      }),
    );
  },
};
const handler = new DefaultRequestHandler(plainCard, new InMemoryTaskStore(), executor);
app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler }));
app.use(
  "/rpc",
  jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }),
);

// §7.3 discovery at the hub.
const directory = new AgentDirectory(hub);
const found = await directory.findAgents({
  protocols: ["a2a+ocp"],
  features: ["consensus_voting"],
  workspace: "acme-engineering",
});
console.log("findAgents:", found.map((a) => a.id).join(", "));

// §9.1 fallback: the card decides the path.
const where = new Map([
  ["a2a://plain", plainUrl],
  [carol.identity.id, carol.server.url],
]);
const fallback = new A2AFallback({
  identity: alice.identity,
  resolver: new CardResolver({ locate: (id) => where.get(id) }),
  ocp: alice.link,
  negotiator: alice.negotiator,
  onRoute: (r) =>
    console.log(`route: ${r.to} via ${r.path}${r.task === undefined ? "" : ` (${r.task})`}`),
});
const node = {
  id: "n-1",
  type: "code.solution",
  title: "Retry with jitter",
  data: {},
  confidence: 0.9,
  timestamp: new Date().toISOString(),
  createdBy: alice.identity.id,
  tags: ["backend"],
};
const stream = { streamId: "s-1", nodes: [node], isIncremental: false, sequenceNumber: 1 };
console.log(
  "plain replied:",
  JSON.stringify((await fallback.send("a2a://plain", "ocp.knowledge.stream", stream)).reply),
);
const voted = await fallback.send("a2a://plain", "ocp.consensus.propose", {
  proposalId: "prop-1",
  topic: "Adopt retries",
  proposal: {},
  votingPeriod: 60,
  requiredVotes: 1,
  votingRule: "majority",
});
console.log("plain voted:", voted.reply.vote);
const merged = carol.agent.once("knowledge");
await fallback.send(carol.identity.id, "ocp.knowledge.stream", stream);
console.log("carol merged:", (await merged)[0].map((n) => n.title).join(", "));

// §7.2 carol never confirmed consensus_voting: refused before sending.
try {
  await fallback.send(carol.identity.id, "ocp.consensus.propose", {
    proposalId: "prop-2",
    topic: "x",
    proposal: {},
    votingPeriod: 60,
    requiredVotes: 1,
    votingRule: "majority",
  });
} catch (error) {
  console.log("refused:", error.code, error.details.feature);
}

// §9.2 an SDK client asks alice; its requests are signed with carol's key,
// which alice verifies against carol's profile at the hub.
const client = await createA2AClient(alice.server.url, { identity: carol.identity });
const message = {
  messageId: crypto.randomUUID(),
  contextId: "",
  taskId: "",
  role: Role.ROLE_USER,
  parts: [
    dataPart({
      task: "search_and_respond",
      input: { queryId: "q-1", query: "retry", timeout: 5000 },
    }),
  ],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
};
await alice.agent.streamKnowledge([node]);
const task = await client.sendMessage({
  tenant: "",
  message,
  configuration: undefined,
  metadata: undefined,
});
console.log(
  "search_and_respond:",
  task.artifacts[0].parts[0].content.value.findings.map((f) => f.node.title).join(", "),
);

// Without credentials, alice's endpoint answers HTTP 401 and the SDK client throws.
const stranger = await new ClientFactory().createFromUrl(alice.server.url);
try {
  await stranger.sendMessage({
    tenant: "",
    message,
    configuration: undefined,
    metadata: undefined,
  });
} catch (error) {
  console.log("anonymous:", error.errorResponse.error.data.reason);
}

await alice.agent.close();
await carol.agent.close();
await alice.server.close();
await carol.server.close();
http.close();
http.closeAllConnections();
await hub.close();
rmSync(dir, { recursive: true, force: true });
