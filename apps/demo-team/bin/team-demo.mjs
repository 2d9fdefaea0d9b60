#!/usr/bin/env node
// The team demo: starts a hub process and four agent processes (real
// processes, real sockets, SQLite files in a temporary directory), runs a
// scripted scenario and prints a readable transcript. Exits 0 and cleans up.
//   pnpm demo:team, or node apps/demo-team/bin/team-demo.mjs after `pnpm build`
//   --dashboard: the hub also serves its live dashboard (printed URL), showing
//   the demo's knowledge (this loopback run opts in to content display); the
//   demo pauses between steps and between votes so it can be watched, and
//   keeps the agents connected until Ctrl-C at the end.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { demoOptions } from "../src/cli.mjs";
import { commandedProcess, hubCli, stopAll } from "../src/processes.mjs";
import { bounded } from "../src/wait.mjs";

const HELP = `Usage: ocp-team-demo [--dashboard]

Runs the a2a+ocp team demo: an ocp-hub process (SQLite in a temporary
directory) and four agent processes over real WebSockets share knowledge,
ask the team, vote on a proposal, report a blocker and share a private fix
end to end encrypted; prints a transcript,
then stops everything and removes its files.

Options:
  --dashboard    the hub also serves its live dashboard (URL printed); the demo
                 pauses between steps and waits for Ctrl-C at the end
  -h, --help     show this help
  -v, --version  print the version and exit
`;

const options = demoOptions("ocp-team-demo", HELP, { dashboard: { type: "boolean" } });

const here = dirname(fileURLToPath(import.meta.url));
const DASHBOARD = options.dashboard === true;
/** With --dashboard, a pause between steps (and shorter, between votes) so that each shows. */
const pause = (ms = 2500) =>
  DASHBOARD ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
const dir = mkdtempSync(join(tmpdir(), "ocp-team-demo-"));
const children = new Set();
const say = (line) => process.stdout.write(`${line}\n`);

/** Stops every child (bounded wait for each to exit), then removes the temporary directory. */
async function cleanup() {
  await stopAll(children);
  rmSync(dir, { recursive: true, force: true });
}

function startHub() {
  const args = [hubCli, "--db", join(dir, "hub.sqlite"), "--port", "0"];
  // The demo's nodes carry no visibility (read as workspace): on this loopback run, with
  // made-up knowledge, the dashboard shows their content. The hub's own default hides it.
  const dashboardArgs = ["--dashboard", "--dashboard-show-all"];
  const hub = spawn(process.execPath, DASHBOARD ? [...args, ...dashboardArgs] : args, {
    stdio: ["ignore", "pipe", DASHBOARD ? "pipe" : "inherit"],
  });
  children.add(hub);
  const url = bounded(
    new Promise((resolve) => createInterface({ input: hub.stdout }).once("line", resolve)),
    "hub start",
  );
  if (!DASHBOARD) return url.then((hubUrl) => ({ hubUrl }));
  // The hub says where its dashboard is on stderr; everything else it says passes through.
  const dashboard = bounded(
    new Promise((resolve) =>
      createInterface({ input: hub.stderr }).on("line", (line) => {
        const found = /dashboard on (http:\/\/\S+)/.exec(line);
        if (found) resolve(found[1]);
        else if (!line.startsWith("ocp-hub: listening") && !line.includes("registration is"))
          process.stderr.write(`${line}\n`);
      }),
    ),
    "dashboard start",
  );
  return Promise.all([url, dashboard]).then(([hubUrl, dashboardUrl]) => ({ hubUrl, dashboardUrl }));
}

/** Agent `name`'s process (team-demo-agent.mjs) on the hub at `url`; `ready` once connected. */
function startAgent(name, url) {
  const agent = commandedProcess(join(here, "team-demo-agent.mjs"), [name, url, dir], {
    name,
    children,
  });
  return { name, waitFor: agent.waitFor, run: agent.run, ready: agent.ready };
}

/**
 * Ctrl-C. At the end of a --dashboard run it ends the demo (exit 0); before
 * that it stops every child and removes the files too, and exits 130.
 */
let finished = false;
const interrupted = new Promise((resolve) => process.once("SIGINT", resolve));
interrupted.then(async () => {
  if (finished) return;
  process.stderr.write("team demo interrupted\n");
  await cleanup();
  process.exit(130);
});

async function main() {
  const { hubUrl: url, dashboardUrl } = await startHub();
  say(`hub     listening on ${url} (SQLite in ${dir})`);
  if (dashboardUrl !== undefined) {
    say(`dashboard         ${dashboardUrl}  (open it in a browser; the demo starts in 5 s)`);
    await new Promise((resolve) => setTimeout(resolve, 5000));
  }
  const [alice, bob, carol, dave] = ["alice", "bob", "carol", "dave"].map((n) =>
    startAgent(n, url),
  );
  await Promise.all([alice, bob, carol, dave].map((a) => a.ready));
  say("agents  alice, bob, carol and dave connected (each its own process and SQLite graph)\n");

  say("== 1. Alice shares a fix; Bob, subscribed to backend knowledge, receives it");
  await bob.run({ cmd: "subscribe", to: "alice", filters: { domains: ["backend"] } });
  await alice.run({ cmd: "ping" });
  const received = bob.waitFor((e) => e.ev === "knowledge", "knowledge");
  await alice.run({
    cmd: "know",
    nodes: [
      {
        title: "WebSocket memory leak fix",
        description: "Delete the connection from the registry on close.",
        data: { code: "ws.on('close', () => connections.delete(id))" },
        tags: ["websocket", "fix"],
        metadata: { domain: "backend" },
      },
    ],
  });
  say('alice   streams  "WebSocket memory leak fix" (domain backend)');
  const got = await received;
  say(`bob     receives ${got.titles.map((t) => `"${t}"`).join(", ")} from ${got.from}\n`);

  await pause();
  say('== 2. Alice asks the team: "What\'s our approach to authentication?"');
  const jwt = {
    title: "Authentication uses short-lived JWT access tokens",
    description: "JWT access tokens (15 min) with rotating refresh tokens in an httpOnly cookie.",
    tags: ["auth", "jwt"],
  };
  await bob.run({ cmd: "know", nodes: [jwt, { title: "Database is PostgreSQL 16" }] });
  await carol.run({
    cmd: "know",
    nodes: [
      jwt,
      {
        title: "Login uses OAuth with GitHub",
        description: "Users sign in with GitHub OAuth; we map the GitHub id to our user.",
        tags: ["auth", "login"],
      },
    ],
  });
  await dave.run({
    cmd: "know",
    nodes: [
      { title: "Frontend uses React 19" },
      {
        title: "Admin console authentication uses server-side sessions",
        description: "The admin console keeps sessions in Redis, not JWT.",
        tags: ["auth"],
        metadata: { contradicts: jwt.title },
      },
    ],
  });
  const { synthesis, stoppedBy } = await alice.run({
    cmd: "ask",
    query: "What's our approach to authentication?",
    structuredQuery: {
      intent: "find_information",
      domains: [],
      keywords: ["authentication", "auth", "login"],
    },
    minResponses: 3,
  });
  say(`alice   got ${synthesis.sources.length} responses (stopped by ${stoppedBy}); synthesis:`);
  for (const line of synthesis.answer.split("\n")) say(`          answer:    ${line}`);
  for (const point of synthesis.keyPoints ?? []) say(`          key point: ${point}`);
  for (const c of synthesis.consensus) say(`          consensus: ${c}`);
  say(
    `          dissent:   ${synthesis.dissent.length === 0 ? "(none)" : synthesis.dissent.join("; ")}`,
  );
  say(`          sources:   ${synthesis.sources.join(", ")}\n`);

  await pause();
  say("== 3. Bob proposes a change; the others vote");
  const seen = Promise.all(
    [alice, carol, dave].map((a) => a.waitFor((e) => e.ev === "proposal", "proposal")),
  );
  const decided = Promise.all(
    [alice, carol, dave].map((a) => a.waitFor((e) => e.ev === "consensus", "decision")),
  );
  const { proposalId } = await bob.run({
    cmd: "propose",
    proposal: {
      topic: "Switch to PostgreSQL",
      proposal: { decision: "Migrate from MySQL to PostgreSQL" },
      votingPeriod: 60,
      requiredVotes: 3,
      votingRule: "majority",
    },
  });
  say(`bob     proposes "Switch to PostgreSQL" (majority, quorum 3, 60 s)`);
  await seen;
  for (const [agent, vote, reasoning] of [
    [alice, "approve", "Better JSON support"],
    [carol, "approve", "We already run it elsewhere"],
    [dave, "reject", "Two weeks we do not have"],
  ]) {
    await pause(1500); // the tally grows vote by vote on the dashboard
    await agent.run({ cmd: "vote", proposalId, vote, reasoning });
    say(`${agent.name.padEnd(7)} votes ${vote} (${reasoning})`);
  }
  for (const d of await decided) {
    say(
      `${d.agent.padEnd(7)} learns: ${d.status} ${d.outcome} (${d.votes.approve} approve, ${d.votes.reject} reject, ${d.votes.abstain} abstain); signed votes verified: ${d.verified}`,
    );
  }
  say("");

  await pause();
  say("== 4. Carol reports she is blocked");
  const heard = alice.waitFor(
    (e) => e.ev === "awareness" && e.status === "blocked",
    "carol's beacon",
  );
  await carol.run({
    cmd: "beacon",
    awareness: {
      status: "blocked",
      availability: "available",
      currentContext: {
        task: "Implement OAuth",
        file: "src/auth/oauth.ts",
        blockedOn: "Waiting for API credentials",
      },
    },
  });
  say('carol   beacons  status blocked, task "Implement OAuth"');
  await heard;
  const { agents } = await alice.run({ cmd: "who", filters: { status: ["blocked"] } });
  for (const a of agents)
    say(
      `alice   sees     ${a.agentId} is ${a.awareness.status} on "${a.awareness.currentContext?.task}": ${a.awareness.currentContext?.blockedOn}`,
    );

  say("");

  await pause();
  say("== 5. Alice shares a private fix with Bob only, end to end encrypted");
  await carol.run({ cmd: "subscribe", to: "alice", filters: { domains: ["backend"] } });
  await alice.run({ cmd: "ping" });
  const fix = "Rotate the leaked deploy key";
  const sealedFix = bob.waitFor((e) => e.ev === "knowledge" && e.titles.includes(fix), "the fix");
  const {
    ids: [fixId],
  } = await alice.run({
    cmd: "know",
    nodes: [
      {
        title: fix,
        description: "Revoke the old key in the vault, then redeploy with the new one.",
        tags: ["security", "fix"],
        metadata: { domain: "backend" },
        visibility: "private",
        sharedWith: ["a2a://bob"],
      },
    ],
  });
  say(`alice   streams  "${fix}" (private, shared with bob: sealed for alice and bob)`);
  await sealedFix;
  say(`bob     receives "${fix}" and opens it with his own key`);
  const { has } = await carol.run({ cmd: "has", nodeId: fixId });
  say(
    `carol   ${has ? "HAS the fix: a leak" : "does not have it (subscribed too, but not in sharedWith)"}`,
  );
  // What the hub wrote: its SQLite files, read as raw bytes.
  const stored = Buffer.concat(
    readdirSync(dir)
      .filter((name) => name.startsWith("hub.sqlite"))
      .map((name) => readFileSync(join(dir, name))),
  );
  const inClear = stored.includes(fix) || stored.includes("Revoke the old key");
  say(
    inClear
      ? "hub     stored the fix IN CLEAR"
      : "hub     stored the fix as ciphertext: no byte of its title or text in its SQLite files",
  );
  if (has || inClear) throw new Error("the private fix was not kept end to end encrypted");

  if (DASHBOARD) {
    // Ctrl-C reaches the agents too (one process group): cleanup() stops what is left.
    finished = true;
    say("\nthe agents stay connected and the dashboard up: press Ctrl-C to stop");
    await interrupted;
  } else {
    await Promise.all(
      [alice, bob, carol, dave].map((a) => a.run({ cmd: "quit" }).catch(() => undefined)),
    );
  }
  say("\nall agents left; hub stopped; temporary files removed");
}

main().then(
  async () => {
    await cleanup();
    process.exit(0);
  },
  async (error) => {
    process.stderr.write(
      `team demo failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    await cleanup();
    process.exit(1);
  },
);
