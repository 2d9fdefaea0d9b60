// `pnpm demo:team-context`: a hub, two agents with knowledge, and the demo
// host composing one prompt from the docs provider and the team's knowledge.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { hubLink, OCPAgent } from "@ocp/a2a-ocp-agent";
import { HubClient } from "@ocp/a2a-ocp-client";
import { OCPHub } from "@ocp/a2a-ocp-hub";
import { generateIdentity } from "@ocp/a2a-ocp-messaging";
import { saveIdentity } from "@ocp/a2a-ocp-messaging/node";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const question = process.argv.slice(2).join(" ") || "websocket reconnect backoff and memory leak";
const work = mkdtempSync(join(tmpdir(), "ocp-team-demo-"));
const hub = await OCPHub.start({ dbPath: join(work, "hub.sqlite"), onError: () => {} });

async function agent(id) {
  const identity = generateIdentity(id);
  const client = new HubClient({ url: hub.url, identity });
  await client.connect();
  return new OCPAgent({ identity, link: hubLink(client) }).start();
}
const alice = await agent("a2a://alice");
const bob = await agent("a2a://bob");
const now = new Date().toISOString();
await alice.streamKnowledge([
  {
    id: "decision-backoff",
    type: "decision",
    title: "Reconnect WebSockets with exponential backoff",
    description: "Reconnect with exponential backoff and full jitter, capped at 30 s.",
    data: { rationale: "a fleet reconnecting at once overloads the gateway" },
    confidence: 0.9,
    timestamp: now,
    createdBy: alice.id,
    tags: ["websocket", "reconnect"],
  },
  {
    id: "alice-private",
    type: "fact",
    title: "Staging gateway password",
    description: "Private to alice: never leaves her agent.",
    data: {},
    confidence: 1,
    timestamp: now,
    createdBy: alice.id,
    tags: ["websocket"],
    visibility: "private",
  },
]);
await bob.streamKnowledge([
  {
    id: "ws-leak-fix",
    type: "code.solution",
    title: "WebSocket memory leak fix",
    description: "Delete the connection from the map when the socket closes.",
    data: { code: "ws.on('close', () => connections.delete(id))" },
    confidence: 0.95,
    timestamp: now,
    createdBy: bob.id,
    tags: ["websocket", "reconnect"],
  },
]);
const keyFile = join(work, "me.key");
await saveIdentity(keyFile, generateIdentity("a2a://demo-host-agent"));
console.error(`demo: hub ${hub.url}; agents ${alice.id} and ${bob.id} hold knowledge\n`);

const config = join(work, "ocp.config.json");
const teamCli = join(root, "packages", "team-context", "dist", "cli.js");
writeFileSync(
  config,
  JSON.stringify({
    providers: [
      {
        id: "repo-docs",
        stdio: {
          command: process.execPath,
          args: [
            join(root, "apps", "demo-provider", "dist", "cli.js"),
            "--quiet",
            join(root, "README.md"),
            join(root, "docs"),
          ],
        },
      },
      {
        id: "team",
        stdio: {
          command: process.execPath,
          args: [
            teamCli,
            "--hub",
            hub.url,
            "--identity",
            keyFile,
            "--peer",
            alice.id,
            "--peer",
            bob.id,
          ],
        },
      },
    ],
    consentFile: "consent.jsonl",
  }),
);
const host = spawn(
  process.execPath,
  [
    join(root, "apps", "demo-host", "dist", "cli.js"),
    "--config",
    config,
    "--max-tokens",
    "4000",
    question,
  ],
  { stdio: "inherit", cwd: work },
);
host.once("exit", async (code) => {
  await Promise.all([alice.close(), bob.close()]);
  await hub.close();
  rmSync(work, { recursive: true, force: true });
  process.exit(code ?? 1);
});
