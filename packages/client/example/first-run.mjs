import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OCPHub } from "@ocp/a2a-ocp-hub";
import { generatePrivateKey, OCPAgent } from "@ocp/client";

// A hub of our own on 127.0.0.1 (a free port), storing in a temporary SQLite file
const hub = await OCPHub.start({ dbPath: join(mkdtempSync(join(tmpdir(), "ocp-")), "hub.sqlite") });

const agent = new OCPAgent({
  id: "a2a://my-agent",
  privateKey: generatePrivateKey(),
  endpoint: hub.url,
});
const teammate = new OCPAgent({
  id: "a2a://teammate-agent",
  privateKey: generatePrivateKey(),
  endpoint: hub.url,
});

// Subscribe to another agent's knowledge
await agent.subscribe("a2a://teammate-agent", { domains: ["backend"], deliveryMode: "push" });

// Handle incoming knowledge
const received = new Promise((resolve) => {
  agent.on("knowledge", (knowledge) => {
    console.log("Received knowledge:", knowledge.map((node) => node.title).join(", "));
    resolve();
  });
});

// The teammate streams a node tagged "backend"; it reaches the subscriber, signed and verified
await teammate.streamKnowledge([
  {
    id: "pool-size",
    type: "decision",
    title: "Pool size is 20",
    data: { pool: 20 },
    confidence: 0.9,
    timestamp: new Date().toISOString(),
    createdBy: teammate.id,
    tags: ["backend"],
  },
]);
await received;

await Promise.all([agent.close(), teammate.close()]);
await hub.close();
