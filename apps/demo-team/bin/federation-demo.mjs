#!/usr/bin/env node
// The federation demo: two organisations (acme, globex), each a real ocp-hub
// process with its own hub key and its own agent processes, linked by
// federate files generated in a temporary directory. Prints a transcript in
// which every claim is checked; exits 0 when all hold, 1 when one does not.
//   pnpm demo:federation, or node apps/demo-team/bin/federation-demo.mjs after `pnpm build`
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { demoOptions } from "../src/cli.mjs";
import { startAgent, teamMember } from "../src/federation/agents.mjs";
import { organisation, startHub, writeFederateFile } from "../src/federation/hubs.mjs";
import { scenario } from "../src/federation/scenario.mjs";
import { stopAll } from "../src/processes.mjs";

const HELP = `Usage: ocp-federation-demo

Runs the a2a+ocp federation demo: two organisations, acme and globex, each an
ocp-hub process with its own hub key and its own agent processes, linked by
federate files (ocp-hub --federate) generated in a temporary directory. Alice
(acme) shares a public fix and a node shared with Bob (globex); acme's team
node is sent by every route and never reaches globex; a collective query is
answered from both organisations within its deadline; globex's hub is killed
mid-stream and nothing acknowledged is lost or applied twice. Prints a
transcript in which each claim is checked, then stops everything and removes
its files.

Exit status: 0 when every check held, 1 when one did not (the transcript's
last line names it), 2 on bad usage, 130 when interrupted.

Options:
  -h, --help     show this help
  -v, --version  print the version and exit
`;

demoOptions("ocp-federation-demo", HELP);

const dir = mkdtempSync(join(tmpdir(), "ocp-federation-demo-"));
const children = new Set();
const say = (line) => process.stdout.write(`${line}\n`);

/** Stops every child still running (bounded wait each), then removes the temporary directory. */
async function cleanup() {
  await stopAll(children);
  rmSync(dir, { recursive: true, force: true });
}

process.once("SIGINT", async () => {
  process.stderr.write("federation demo interrupted\n");
  await cleanup();
  process.exit(130);
});

async function main() {
  say("== 0. Two organisations, each its own hub process, key and agents");
  const acme = await organisation(dir, "acme");
  const globex = await organisation(dir, "globex");
  // acme accepts globex's hub link; globex dials it. Each file lists only the other hub's id and key.
  writeFederateFile(acme, globex, false);
  // acme admits only its two members, both in team acme-eng (globex's hub is open).
  const members = {
    alice: await teamMember(dir, "acme/alice", "acme-eng"),
    carol: await teamMember(dir, "acme/carol", "acme-eng"),
  };
  acme.allowFile = join(dir, "acme-allow.json");
  writeFileSync(
    acme.allowFile,
    JSON.stringify({ profiles: [members.alice.entry, members.carol.entry] }),
  );
  writeFederateFile(globex, acme, true);
  const hubs = {
    acme: await startHub(acme, children),
    globex: await startHub(globex, children),
  };
  say(
    `acme    hub ${acme.hubId} on ${hubs.acme.url}, hub links on ws://127.0.0.1:${acme.linkPort}/`,
  );
  say(`globex  hub ${globex.hubId} on ${hubs.globex.url}, dials acme's hub link`);
  say(
    `        federate files: each lists the other's hub id, Ed25519 key and agent prefix (queries opted in)`,
  );
  const alice = await startAgent("acme/alice", hubs.acme.url, children, members.alice.keyFile);
  const carol = await startAgent("acme/carol", hubs.acme.url, children, members.carol.keyFile);
  const bob = await startAgent("globex/bob", hubs.globex.url, children);
  say("agents  acme/alice and acme/carol (team acme-eng, acme's --allow list) on acme's hub,");
  say("        globex/bob on globex's hub; each agent its own process");
  await scenario({
    say,
    dir,
    orgs: { acme, globex },
    hubs,
    agents: { alice, carol, bob },
    children,
  });
  for (const agent of [alice, carol, bob]) await agent.run({ cmd: "quit" }).catch(() => undefined);
}

main().then(
  async () => {
    await cleanup();
    say("\nall agents left; both hubs stopped; temporary files removed");
    process.exit(0);
  },
  async (error) => {
    const message = error instanceof Error ? error.message : String(error);
    await cleanup();
    say(`\nFAILED: ${message}`);
    process.stderr.write(`federation demo failed: ${message}\n`);
    process.exit(1);
  },
);
