import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { hubLink, OCPAgent } from "@ocp/a2a-ocp-agent";
import { OCPHub } from "@ocp/a2a-ocp-hub";
import type { AgentIdentity, KnowledgeNode } from "@ocp/a2a-ocp-messaging";
import { client, identity, tempDir, testHubOptions, within } from "@ocp/testkit";
import { afterAll, beforeAll } from "vitest";

export const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
export const CLI = join(ROOT, "packages/team-context/dist/cli.js");
export const INSPECT = join(ROOT, "packages/conformance/dist/cli.js");

/** A started agent connected to the hub at `url`. */
export async function teamAgent(url: string, name: string): Promise<OCPAgent> {
  const id: AgentIdentity = identity(name);
  const { client: c } = await client(url, id);
  return new OCPAgent({ identity: id, link: hubLink(c) }).start();
}

/**
 * The provider's arguments for a reader with identity `file` on the hub at
 * `hubUrl`, reading from `peers`, waiting 300 ms for the team's answers.
 */
export function providerArgs(hubUrl: string, file: string, peers: readonly string[]): string[] {
  return [
    ...["--hub", hubUrl, "--identity", file],
    ...peers.flatMap((peer) => ["--peer", peer]),
    ...["--team-wait-ms", "300"],
  ];
}

/** Runs a command to its end; its exit code, stdout and stderr. */
export function run(
  command: string,
  args: readonly string[],
  timeoutMs = 90_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return within(
    new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr }))),
    timeoutMs,
    `${command} ${args.join(" ")}`,
  );
}

/** Starts `ocp-team-context --http 0 ...`; resolves with its URL once it listens. */
export async function httpProvider(
  args: readonly string[],
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [CLI, "--http", "0", ...args], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const url = await within(
    new Promise<string>((resolve, reject) => {
      child.stderr.on("data", (d) => {
        stderr += d;
        const m = /listening on (\S+)/.exec(stderr);
        if (m?.[1] !== undefined) resolve(m[1]);
      });
      child.on("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    }),
    60_000,
    "the HTTP provider to listen",
  );
  return { url, child };
}

/** A knowledge node of the team's fixtures, before an agent signs it as its own. */
export type TeamNode = Partial<KnowledgeNode> &
  Pick<KnowledgeNode, "id" | "type" | "title" | "data" | "confidence" | "timestamp" | "tags">;

/** The team's decision: reconnect with exponential backoff. */
export const BACKOFF = {
  id: "decision-backoff",
  type: "decision",
  title: "Reconnect WebSockets with exponential backoff",
  description: "Agreed: reconnect with exponential backoff and jitter, capped at 30 s.",
  data: { rationale: "a fleet reconnecting at once overloads the gateway" },
  confidence: 0.9,
  timestamp: "2026-01-01T00:00:00Z",
  tags: ["websocket", "reconnect"],
} satisfies TeamNode;

/** A private fact of its author's that must never leave its agent. */
export const SECRET = {
  id: "private-token",
  type: "fact",
  title: "WebSocket reconnect token rotation secret",
  description: "The reconnect token is rotated with the hidden key kept by alice.",
  data: {},
  confidence: 0.9,
  timestamp: "2026-01-01T00:00:00Z",
  tags: ["websocket", "reconnect"],
  visibility: "private" as const,
} satisfies TeamNode;

/** A code fix the team shares. */
export const LEAK = {
  id: "ws-leak-fix",
  type: "code.solution",
  title: "WebSocket memory leak fix",
  description: "Delete the connection from the map when the socket closes.",
  data: { code: "ws.on('close', () => connections.delete(id))" },
  confidence: 0.95,
  timestamp: "2026-01-01T00:00:00Z",
  tags: ["websocket", "reconnect", "memory-leak"],
} satisfies TeamNode;

/**
 * A real hub (SQLite in a temporary directory named with `prefix`) and one
 * started agent per entry of `knowledge`, each streaming its nodes as their
 * author, for all the tests of the calling file: started in `beforeAll`; in
 * `afterAll` the test's `closers` run (newest first), then the agents and
 * the hub close and the directory goes.
 */
export function teamOnHub(prefix: string, knowledge: Record<string, TeamNode[]>) {
  const tmp = tempDir(prefix);
  const closers: Array<() => Promise<unknown>> = [];
  const agents = new Map<string, OCPAgent>();
  let hub: OCPHub | undefined;
  beforeAll(async () => {
    hub = await OCPHub.start(testHubOptions(tmp.dir));
    for (const name of Object.keys(knowledge)) agents.set(name, await teamAgent(hub.url, name));
    for (const [name, nodes] of Object.entries(knowledge)) {
      const agent = agents.get(name)!;
      await agent.streamKnowledge(nodes.map((n) => ({ ...n, createdBy: agent.id })));
    }
  });
  afterAll(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
    await Promise.all([...agents.values()].map((a) => a.close()));
    await hub?.close();
    tmp.cleanup();
  });
  return {
    /** The temporary directory (for identity files). */
    dir: tmp.dir,
    closers,
    get hub(): OCPHub {
      if (hub === undefined) throw new Error("teamOnHub: no hub outside the tests");
      return hub;
    },
    /** The started agent `name`. */
    agent(name: string): OCPAgent {
      const agent = agents.get(name);
      if (agent === undefined) throw new Error(`teamOnHub: no agent ${name} outside the tests`);
      return agent;
    },
  };
}
