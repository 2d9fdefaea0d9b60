#!/usr/bin/env node
/**
 * A dev-only runnable agent for the compatibility suite (`ocp-test` of
 * `@ocp/test-suite`): an `OCPAgent` of this package with its defaults
 * (in-memory graph, answers collective queries, keeps presence) whose
 * program votes `approve` once on every proposal it receives.
 *
 *   node scripts/ocp-test-agent.mjs --hub ws://…   joins a hub (HubClient)
 *   OCP_HUB_URL=ws://… node scripts/ocp-test-agent.mjs   the same
 *   node scripts/ocp-test-agent.mjs                listens (listenForPeers) and
 *                                                  prints its ws:// URL on stdout
 *
 * Needs `pnpm build` first. Stops on SIGTERM / SIGINT.
 */
import { randomUUID } from "node:crypto";
import { HubClient } from "@ocp/a2a-ocp-client";
import { generateIdentity } from "@ocp/a2a-ocp-messaging";
import { hubLink, listenForPeers, OCPAgent } from "../dist/index.js";

const args = process.argv.slice(2);
let hub = process.env.OCP_HUB_URL;
let port = 0;
for (let index = 0; index < args.length; index += 1) {
  if (args[index] === "--hub") hub = args[++index];
  else if (args[index] === "--port") port = Number(args[++index]);
  else {
    process.stderr.write("usage: ocp-test-agent.mjs [--hub URL | --port N]\n");
    process.exit(2);
  }
}

const identity = generateIdentity(`a2a://ocp-test-agent-${randomUUID().slice(0, 8)}`);
let link;
let url;
let closeListener = async () => {};
if (hub) {
  link = hubLink(await HubClient.connect({ url: hub, identity }));
  url = hub;
} else {
  const listener = await listenForPeers({ identity, port });
  link = listener.link;
  url = listener.url;
  closeListener = () => listener.close();
}
const agent = new OCPAgent({ identity, link }).start();
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
  await agent.close();
  await closeListener();
  process.exit(0);
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
