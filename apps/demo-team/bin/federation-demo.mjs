#!/usr/bin/env node
// The federation demo: two organisations, acme and globex, each an ocp-hub
// process with its own SQLite file and hub key (temporary directory), linked
// by `ocp-hub --federate`. Their agents (hub clients over real WebSockets)
// share across the boundary; what may not cross does not. Prints a
// transcript, then stops everything and removes its files.
//   pnpm demo:federation, or node apps/demo-team/bin/federation-demo.mjs after `pnpm build`
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { HubClient } from "@ocp/a2a-ocp-client";
import { createAgentProfile, generateIdentity } from "@ocp/a2a-ocp-messaging";
import { saveIdentity } from "@ocp/a2a-ocp-messaging/node";

const HELP = `Usage: ocp-federation-demo

Runs the a2a+ocp federation demo: two ocp-hub processes, one per
organisation (acme, globex), linked with --federate; their agents share a
public fix and a node shared by name across the boundary, a team node stays
home, and a collective query is answered from both organisations. Prints a
transcript, then stops everything and removes its files.

Options:
  -h, --help     show this help
`;

const argv = process.argv.slice(2);
if (argv[0] === "--") argv.shift();
if (argv.includes("-h") || argv.includes("--help")) {
  process.stdout.write(HELP);
  process.exit(0);
}
if (argv.length > 0) {
  process.stderr.write(
    `ocp-federation-demo: unknown argument ${argv[0]}\nrun "ocp-federation-demo --help" for usage\n`,
  );
  process.exit(2);
}

const hubCli = join(
  dirname(createRequire(import.meta.url).resolve("@ocp/a2a-ocp-hub/package.json")),
  "dist",
  "cli.js",
);
const STEP_TIMEOUT_MS = 20_000;
const dir = mkdtempSync(join(tmpdir(), "ocp-federation-demo-"));
const children = [];
const clients = [];
const say = (line) => process.stdout.write(`${line}\n`);

function bounded(promise, what) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out: ${what}`)), STEP_TIMEOUT_MS);
    promise.finally(() => clearTimeout(timer)).then(resolve, reject);
  });
}

async function cleanup() {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => {
            child.kill("SIGKILL");
            resolve();
          }, 5000);
          child.once("exit", () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill("SIGTERM");
        }),
    ),
  );
  rmSync(dir, { recursive: true, force: true });
}

/** One organisation's hub process; resolves with its agent URL and, if it listens, its hub-link URL. */
function startHub(name, federateFile, listens) {
  const child = spawn(
    process.execPath,
    [
      hubCli,
      ...["--db", join(dir, `${name}.sqlite`), "--identity", join(dir, `${name}.key`)],
      ...["--federate", federateFile],
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  children.push(child);
  const url = new Promise((resolve) =>
    createInterface({ input: child.stdout }).once("line", resolve),
  );
  const links = new Promise((resolve) =>
    createInterface({ input: child.stderr }).on("line", (line) => {
      const found = /hub links on (ws:\/\/\S+)/.exec(line);
      if (found) resolve(found[1]);
    }),
  );
  return bounded(
    Promise.all([url, listens ? links : undefined]).then(([hubUrl, linkUrl]) => ({
      hubUrl,
      linkUrl,
    })),
    `${name} hub start`,
  );
}

/** A hub client for `id` with a public card (only public cards are shown to other organisations). */
async function agent(hubUrl, id) {
  const profile = createAgentProfile(id, { extra: { visibility: "public" } });
  const client = new HubClient({ url: hubUrl, identity: id, profile });
  const received = [];
  const waiters = [];
  client.on("message", (m) => {
    received.push(m);
    for (const w of waiters.splice(0)) w();
  });
  await bounded(client.connect(), `${id.id} connect`);
  clients.push(client);
  const until = (predicate, what) =>
    bounded(
      (async () => {
        while (!received.some(predicate)) await new Promise((r) => waiters.push(r));
        return received.find(predicate);
      })(),
      what,
    );
  return { id, client, received, until };
}

const node = (createdBy, id, title, access) => ({
  id,
  type: "code.solution",
  title,
  data: {},
  confidence: 0.9,
  timestamp: new Date().toISOString(),
  createdBy,
  tags: ["cache"],
  ...access,
});

const stream = (to, nodes) => ({
  type: "ocp.knowledge.stream",
  to,
  payload: { streamId: "fed-demo", nodes, edges: [], isIncremental: true, sequenceNumber: 1 },
});

const carries = (nodeId) => (m) => JSON.stringify(m.message.payload ?? {}).includes(nodeId);

async function main() {
  const acmeKey = generateIdentity("a2a://acme-hub");
  const globexKey = generateIdentity("a2a://globex-hub");
  await saveIdentity(join(dir, "acme.key"), acmeKey);
  await saveIdentity(join(dir, "globex.key"), globexKey);
  const peer = (name, key, url) => ({
    hubId: key.id,
    publicKey: Buffer.from(key.publicKey).toString("base64"),
    agents: [`a2a://${name}/`],
    queries: true,
    ...(url === undefined ? {} : { url }),
  });
  const acmeFile = join(dir, "acme-federate.json");
  writeFileSync(
    acmeFile,
    JSON.stringify({ listen: { port: 0 }, peers: [peer("globex", globexKey)] }),
  );
  const acme = await startHub("acme", acmeFile, true);
  say(`acme    hub ${acmeKey.id} on ${acme.hubUrl}, accepts hub links on ${acme.linkUrl}`);
  const globexFile = join(dir, "globex-federate.json");
  writeFileSync(globexFile, JSON.stringify({ peers: [peer("acme", acmeKey, acme.linkUrl)] }));
  const globex = await startHub("globex", globexFile, false);
  say(`globex  hub ${globexKey.id} on ${globex.hubUrl}, dials acme`);

  const alice = await agent(acme.hubUrl, generateIdentity("a2a://acme/alice"));
  const dave = await agent(acme.hubUrl, generateIdentity("a2a://acme/dave"));
  const bob = await agent(globex.hubUrl, generateIdentity("a2a://globex/bob"));
  // Bob finds Alice's card through his own hub once acme vouched for it over the link.
  const card = await bounded(
    (async () => {
      for (;;) {
        const { agents: cards } = await bob.client.findAgents({});
        const found = cards.find((c) => c.id === alice.id.id);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 100));
      }
    })(),
    "alice's card at globex",
  );
  say(`link    up; bob (globex) finds ${card.id}'s card through his own hub`);
  for (;;) {
    const { agents: cards } = await alice.client.findAgents({});
    if (cards.some((c) => c.id === bob.id.id)) break;
    await new Promise((r) => setTimeout(r, 100));
  }

  await alice.client.send(
    stream("broadcast", [
      node(alice.id.id, "fix-1", "Evict the cache on deploy", { visibility: "public" }),
    ]),
  );
  const fix = await bob.until(carries("fix-1"), "the public fix at bob");
  say(
    `public  alice shares "Evict the cache on deploy" (public) → bob receives it from ${fix.wire.from}`,
  );

  await alice.client.send(
    stream(bob.id.id, [
      node(alice.id.id, "shared-1", "Staging credentials rotate Mondays", {
        visibility: "private",
        sharedWith: [bob.id.id],
      }),
    ]),
  );
  await bob.until(carries("shared-1"), "the shared node at bob");
  say("shared  alice shares a private node naming bob in sharedWith → bob receives it");

  const team = await alice.client.send(
    stream(bob.id.id, [
      node(alice.id.id, "team-1", "Acme's incident notes", { visibility: "team" }),
    ]),
  );
  await alice.client.send(
    stream(bob.id.id, [node(alice.id.id, "marker-1", "marker", { visibility: "public" })]),
  );
  await bob.until(carries("marker-1"), "the marker at bob");
  const leaked = bob.received.some(carries("team-1"));
  say(
    `team    alice sends a team node to bob → acme's hub acks it for ${team.recipients} recipients; globex ${leaked ? "RECEIVED IT" : "never sees it"}`,
  );

  const asked = Date.now();
  await alice.client.send({
    type: "ocp.collective.query",
    to: "broadcast",
    payload: { queryId: "q-1", query: "how do we stop stale caches?", timeout: 10_000 },
  });
  const answer = (who, nodeId) =>
    who
      .until((m) => m.wire.type === "ocp.collective.query", `the query at ${who.id.id}`)
      .then(() =>
        who.client.send({
          type: "ocp.collective.response",
          to: alice.id.id,
          payload: {
            queryId: "q-1",
            findings: [
              {
                node: node(who.id.id, nodeId, `${who.id.id}'s answer`, { visibility: "public" }),
                relevance: 0.8,
              },
            ],
            confidence: 0.8,
            processingTime: 3,
          },
        }),
      );
  await Promise.all([answer(dave, "answer-dave"), answer(bob, "answer-bob")]);
  await alice.until(carries("answer-dave"), "dave's answer");
  await alice.until(carries("answer-bob"), "bob's answer");
  say(
    `query   alice asks both organisations → answers from dave (acme) and bob (globex) within the 10 s deadline (${Date.now() - asked < 10_000 ? "in time" : "LATE"})`,
  );
  if (leaked) throw new Error("a team node crossed the boundary");
  say("done    stopping both hubs");
}

main()
  .then(cleanup, async (error) => {
    process.stderr.write(
      `ocp-federation-demo: ${error instanceof Error ? error.message : error}\n`,
    );
    await cleanup();
    process.exit(1);
  })
  .then(() => process.exit(0));
