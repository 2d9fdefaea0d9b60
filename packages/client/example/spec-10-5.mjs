// The specification's §10.5 example ("Simple Knowledge Streaming"), as
// written there, run against a hub: OCP_HUB_URL (default ws://localhost:8080/ocp),
// AGENT_ID, PRIVATE_KEY (base64 or hex; a fresh key when unset) and TEAMMATE.
import { generatePrivateKey, OCPAgent } from "@ocp/client";

const agent = new OCPAgent({
  id: process.env.AGENT_ID ?? "a2a://my-agent",
  privateKey: process.env.PRIVATE_KEY ?? generatePrivateKey(),
  endpoint: process.env.OCP_HUB_URL ?? "ws://localhost:8080/ocp",
});

// Subscribe to another agent's knowledge
await agent.subscribe(process.env.TEAMMATE ?? "a2a://teammate-agent", {
  domains: ["backend"],
  deliveryMode: "push",
});

// Handle incoming knowledge
agent.on("knowledge", (knowledge) => {
  console.log("Received knowledge:", knowledge.map((node) => node.title).join(", "));
});

// Stream your own knowledge
const node = {
  id: "node-123",
  type: "code.solution",
  title: "Fixed memory leak",
  data: { files: ["src/server.ts"] },
  confidence: 0.9,
  timestamp: new Date().toISOString(),
  createdBy: agent.id,
  tags: ["bug-fix"],
};
await agent.streamKnowledge([node]);
console.log(`streamed ${node.id} as ${agent.id}`);
