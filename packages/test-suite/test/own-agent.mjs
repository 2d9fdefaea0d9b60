#!/usr/bin/env node
/**
 * Our own agent for the compatibility suite (dev-only, not published): an
 * `OCPAgent` of `@ocp/a2a-ocp-agent` with its defaults (in-memory graph,
 * answers collective queries, keeps presence) whose program votes `approve`
 * once on every proposal it receives, and which serves A2A with
 * `@ocp/a2a-compat` (`A2AServer`, its default security: signed requests
 * from agents the hub knows; no anonymous callers). Its signed profile
 * carries its agent card (`profileWithCard`), which is how a peer finds its
 * A2A endpoint (§7.3).
 *
 *   node test/own-agent.mjs --hub ws://…   joins a hub (HubClient)
 *   OCP_HUB_URL=ws://… node test/own-agent.mjs   the same
 *   node test/own-agent.mjs --allow-any    listens (listenForPeers) and
 *                                          prints its ws:// URL on stdout;
 *                                          admits any agent with a valid
 *                                          profile (the suite connects fresh
 *                                          agents for every check)
 *   node test/own-agent.mjs --allow FILE   listens, admitting only the agents
 *                                          of FILE (a JSON array of signed
 *                                          profiles or {id, publicKey, team})
 *   node test/own-agent.mjs                listens and admits nobody
 *
 * Needs `pnpm build` first. Stops on SIGTERM / SIGINT.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { profileWithCard } from "@ocp/a2a-compat";
import { A2AServer } from "@ocp/a2a-compat/server";
import { hubLink, listenForPeers, OCPAgent } from "@ocp/a2a-ocp-agent";
import { HubClient } from "@ocp/a2a-ocp-client";
import { generateIdentityWithEncryption } from "@ocp/a2a-ocp-messaging/node";

const args = process.argv.slice(2);
let hub = process.env.OCP_HUB_URL;
let port = 0;
let allowedPeers = [];
for (let index = 0; index < args.length; index += 1) {
  if (args[index] === "--hub") hub = args[++index];
  else if (args[index] === "--port") port = Number(args[++index]);
  else if (args[index] === "--allow-any") allowedPeers = "any";
  else if (args[index] === "--allow")
    allowedPeers = JSON.parse(readFileSync(args[++index], "utf8"));
  else {
    process.stderr.write(
      "usage: own-agent.mjs [--hub URL | [--port N] [--allow FILE | --allow-any]]\n",
    );
    process.exit(2);
  }
}

// With an encryption key in its profile (§8.4): the agent-sealed-* checks seal for it.
const identity = generateIdentityWithEncryption(`a2a://ocp-test-agent-${randomUUID().slice(0, 8)}`);
const a2a = await A2AServer.listen();
const card = a2a.cardFor({ id: identity.id, ...(hub ? { endpoints: { websocket: hub } } : {}) });
const profile = profileWithCard(identity, card);
let link;
let url;
let closeListener = async () => {};
if (hub) {
  link = hubLink(await HubClient.connect({ url: hub, identity, profile }));
  url = hub;
} else {
  const listener = await listenForPeers({ identity, port, profile, allowedPeers });
  link = listener.link;
  url = listener.url;
  closeListener = () => listener.close();
}
const agent = new OCPAgent({ identity, link }).start();
a2a.serve({ agent, card });
const voted = new Set();
agent.on("proposal", (proposal) => {
  if (voted.has(proposal.proposalId)) return;
  voted.add(proposal.proposalId);
  agent.vote(proposal.proposalId, "approve", "the test agent approves").catch((error) => {
    process.stderr.write(`vote failed: ${error.message}\n`);
  });
});
agent.on("error", (error) => process.stderr.write(`agent error: ${error.message}\n`));
process.stdout.write(`${url}\n`);
const stop = async () => {
  await a2a.close();
  await agent.close();
  await closeListener();
  process.exit(0);
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
