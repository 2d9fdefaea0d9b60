// One agent process of the federation demo (started by federation-demo.mjs):
// connects to its organisation's hub with a public card, reads commands as
// JSON lines on stdin and reports what it receives as JSON lines on stdout.
// It answers a collective query addressed to it with the node it was told to
// answer with (command "answer").
//   node federation-demo-agent.mjs acme/alice ws://127.0.0.1:PORT/ [KEYFILE]
// With KEYFILE (an identity file beside KEYFILE.profile.json, its signed
// card as the hub's --allow list names it) it uses those; else new ones.
import { readFileSync } from "node:fs";
import { HubClient } from "@ocp/a2a-ocp-client";
import { createAgentProfile, generateIdentity } from "@ocp/a2a-ocp-messaging";
import { loadIdentity } from "@ocp/a2a-ocp-messaging/node";
import { knowledgeNode, reporter, serveCommands } from "../src/agent-process.mjs";

const [name, url, keyFile] = process.argv.slice(2);
const identity =
  keyFile === undefined ? generateIdentity(`a2a://${name}`) : await loadIdentity(keyFile);
// A public card: the only kind another organisation's hub is shown (and can verify this agent by).
const profile =
  keyFile === undefined
    ? createAgentProfile(identity, { extra: { visibility: "public" } })
    : JSON.parse(readFileSync(`${keyFile}.profile.json`, "utf8"));
const out = reporter(name);

const client = new HubClient({
  url,
  identity,
  profile,
  transport: { reconnectBaseMs: 50, reconnectMaxMs: 500 },
});
let answer;

/** Titles of the knowledge nodes a payload carries (streams, sync responses, query findings). */
function titles(payload) {
  const nodes = [
    ...(payload?.nodes ?? []),
    ...(payload?.findings ?? []).map((f) => f.node).filter(Boolean),
  ];
  return nodes.map((n) => n.title);
}

client.on("message", ({ message, seq }) => {
  out("message", {
    id: message.id,
    seq,
    type: message.type,
    from: message.from,
    titles: titles(message.payload),
    queryId: message.payload?.queryId,
  });
  if (message.type === "ocp.collective.query" && answer !== undefined) {
    const started = Date.now();
    client
      .send({
        type: "ocp.collective.response",
        to: message.from,
        payload: {
          queryId: message.payload.queryId,
          findings: [{ node: node(answer.title, answer), relevance: 0.9 }],
          confidence: 0.9,
          processingTime: Date.now() - started,
        },
      })
      .catch((error) => out("error", { message: String(error?.message ?? error) }));
  }
});
client.on("error", (error) =>
  process.stderr.write(`${name}: ${error instanceof Error ? error.message : String(error)}\n`),
);

function node(title, extra) {
  return knowledgeNode(name, identity.id, title, extra);
}

async function run(cmd) {
  switch (cmd.cmd) {
    case "send": {
      // `nodes` are made into knowledge nodes of this agent and put in the payload at `into`.
      const payload = { ...cmd.payload };
      if (cmd.nodes !== undefined) {
        const made = cmd.nodes.map((n) => node(n.title, n));
        if (cmd.into === "findings")
          payload.findings = made.map((n) => ({ node: n, relevance: 1 }));
        else payload.nodes = made;
      }
      try {
        const receipt = await client.send({ type: cmd.type, to: cmd.to, payload });
        return { sent: true, messageId: receipt.id, recipients: receipt.recipients };
      } catch (error) {
        return { sent: false, code: error?.code ?? "error", message: String(error?.message) };
      }
    }
    case "answer":
      answer = cmd.node;
      return {};
    case "find": {
      const { agents } = await client.findAgents(cmd.query ?? {});
      return { agents: agents.map((a) => a.id) };
    }
    case "ping":
      return { connected: client.connected, lastSeq: client.lastSeq };
    case "quit":
      await client.close();
      out("done", { id: cmd.id });
      process.exit(0);
  }
  throw new Error(`unknown command ${cmd.cmd}`);
}

await client.connect();
serveCommands(run, out, identity.id);
