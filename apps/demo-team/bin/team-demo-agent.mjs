// One agent process of the team demo (started by team-demo.mjs): connects to
// the hub, keeps its knowledge in an SQLite file, reads commands as JSON lines
// on stdin and reports what happens as JSON lines on stdout.
import { join } from "node:path";
import { hubLink, OCPAgent } from "@ocp/a2a-ocp-agent";
import { SqliteGraph } from "@ocp/a2a-ocp-agent/sqlite";
import { HubClient } from "@ocp/a2a-ocp-client";
import { generateIdentityWithEncryption } from "@ocp/a2a-ocp-messaging/node";
import { knowledgeNode, reporter, serveCommands } from "../src/agent-process.mjs";

const [name, url, dir] = process.argv.slice(2);
// With an X25519 key in its signed profile: private knowledge shared with it reaches it sealed (§8.4).
const identity = generateIdentityWithEncryption(`a2a://${name}`);
const out = reporter(name);

const client = new HubClient({ url, identity, transport: { reconnectBaseMs: 50 } });
await client.connect();
const agent = new OCPAgent({
  identity,
  link: hubLink(client),
  graph: new SqliteGraph(identity.id, join(dir, `${name}.sqlite`)),
}).start();

agent.on("knowledge", (nodes, from) =>
  out("knowledge", { from, titles: nodes.map((n) => n.title) }),
);
agent.on("proposal", (p, from) =>
  out("proposal", { from, proposalId: p.proposalId, topic: p.topic }),
);
agent.on("consensus", (d) => out("consensus", d));
agent.on("voteRejected", (v, r) => out("voteRejected", { from: v.from, code: r.code }));
agent.on("awareness", (from, a) =>
  out("awareness", { from, status: a.status, blockedOn: a.currentContext?.blockedOn }),
);
agent.on("synthesis", (s, from) => out("synthesis-received", { from, queryId: s.queryId }));
agent.on("error", (e) =>
  process.stderr.write(`${name}: ${e instanceof Error ? e.message : String(e)}\n`),
);

const node = (title, extra) => knowledgeNode(name, identity.id, title, extra);

async function run(cmd) {
  switch (cmd.cmd) {
    case "know": {
      const nodes = cmd.nodes.map((n) => node(n.title, n));
      await agent.streamKnowledge(nodes);
      return { ids: nodes.map((n) => n.id) };
    }
    case "has":
      return { has: agent.node(cmd.nodeId) !== undefined };
    case "subscribe":
      return {
        subscriptionId: await agent.subscribe(`a2a://${cmd.to}`, {
          deliveryMode: "push",
          filters: cmd.filters,
        }),
      };
    case "ask": {
      const r = await agent.collectiveQuery(cmd.query, {
        timeout: 10_000,
        minResponses: cmd.minResponses,
        ...(cmd.structuredQuery === undefined ? {} : { structuredQuery: cmd.structuredQuery }),
      });
      return { synthesis: r.synthesis, stoppedBy: r.stoppedBy };
    }
    case "propose":
      return { proposalId: await agent.propose(cmd.proposal) };
    case "vote":
      await agent.vote(cmd.proposalId, cmd.vote, cmd.reasoning);
      return {};
    case "beacon":
      await agent.beacon(cmd.awareness);
      return {};
    case "who":
      return { agents: await agent.queryAwareness(cmd.filters) };
    case "ping":
      return {};
    case "quit":
      await agent.close();
      out("done", { id: cmd.id });
      process.exit(0);
  }
  throw new Error(`unknown command ${cmd.cmd}`);
}

serveCommands(run, out, identity.id);
