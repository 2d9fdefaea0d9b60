#!/usr/bin/env node
import { existsSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { generateIdentity } from "@ocp/a2a-ocp-messaging";
import { loadIdentity, saveIdentity } from "@ocp/a2a-ocp-messaging/node";
import type { ContextProvider } from "@ocp/types";
import { DEFAULT_DEADLINE_MS, DEFAULT_TEAM_WAIT_MS } from "./limits.js";

export const HELP = `ocp-team-context — a team's a2a+ocp knowledge as an Open Context (ocp/1.0-draft) provider

Usage:
  ocp-team-context --hub URL --identity FILE [options]

Joins the team on the hub as the agent of FILE and answers Open Context
queries with the knowledge its agent may see, ranked for the goal: cited
frames whose uri is the node's a2a:// reference and whose provenance names
the author, the node's version and the digest of the signed message it
arrived in. When that cannot fill the budget it asks the team (a collective
query) and answers within --deadline-ms whatever the team does.

Serves NDJSON on stdin/stdout by default (stdout carries only protocol
messages; logs go to stderr).

Options:
  --hub URL            the a2a+ocp hub (ws://, or wss:// off this machine)
  --identity FILE      the agent's key file (created with --agent-id when absent)
  --agent-id URI       a2a:// id for a new identity file
  --peer URI           an agent whose knowledge to follow (repeatable)
  --deadline-ms N      answer every query within N ms (default ${DEFAULT_DEADLINE_MS}; keep it under the host's timeout)
  --team-wait-ms N     longest wait for the team's answers, ms (default ${DEFAULT_TEAM_WAIT_MS})
  --no-ask-team        serve the local graph only, never ask the team
  --http PORT          serve JSON over HTTP on PORT instead of stdio (0 = any free port)
  --host ADDR          address to listen on with --http (default 127.0.0.1, loopback only)
  --name NAME          provider name announced at the handshake (default ocp-team-context)
  -h, --help           print this help and exit
  -v, --version        print the version and exit

Exit status: 0 after a shutdown request or the end of stdin; 2 on bad usage;
1 when joining the team or serving fails.`;

function fail(message: string, code: number): never {
  process.stderr.write(`ocp-team-context: ${message}\n`);
  process.exit(code);
}

/** Bad usage: one line naming the problem and a hint (not the usage text), exit 2. */
function usage(message: string): never {
  const line = message.replace(/\s*\n\s*/g, " ");
  fail(`${line}\nrun "ocp-team-context --help" for usage`, 2);
}

function whole(name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > 2_147_483_647)
    usage(`--${name} takes a whole number from ${min}, not "${value}"`);
  return n;
}

function parse() {
  return parseArgs({
    allowPositionals: false,
    strict: true,
    options: {
      hub: { type: "string" },
      identity: { type: "string" },
      "agent-id": { type: "string" },
      peer: { type: "string", multiple: true },
      "deadline-ms": { type: "string" },
      "team-wait-ms": { type: "string" },
      "no-ask-team": { type: "boolean" },
      http: { type: "string" },
      host: { type: "string" },
      name: { type: "string" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
    },
  });
}

async function main(): Promise<void> {
  let values: ReturnType<typeof parse>["values"];
  try {
    values = parse().values;
  } catch (error) {
    usage((error as Error).message);
  }
  const version = (
    JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      version: string;
    }
  ).version;
  if (values.help) return void process.stdout.write(`${HELP}\n`);
  if (values.version) return void process.stdout.write(`${version}\n`);
  const hubUrl = values.hub ?? usage("--hub URL is required");
  const file = values.identity ?? usage("--identity FILE is required");
  if (!/^wss?:\/\//.test(hubUrl)) usage(`--hub takes a ws:// or wss:// URL, not "${hubUrl}"`);
  const deadlineMs = whole("deadline-ms", values["deadline-ms"], 1);
  const teamWaitMs = whole("team-wait-ms", values["team-wait-ms"], 1);
  const port = whole("http", values.http, 0);
  if (port !== undefined && port > 65_535) usage(`--http takes a port number, not ${port}`);

  let identity: Awaited<ReturnType<typeof loadIdentity>>;
  if (existsSync(file)) {
    try {
      identity = await loadIdentity(file);
    } catch (error) {
      usage(`${file} is not an identity file: ${(error as Error).message}`);
    }
    if (values["agent-id"] !== undefined && values["agent-id"] !== identity.id)
      usage(`${file} holds ${identity.id}, not ${values["agent-id"]}`);
  } else {
    const id = values["agent-id"] ?? usage(`${file} does not exist: give --agent-id to create it`);
    try {
      identity = generateIdentity(id);
    } catch (error) {
      usage(`--agent-id takes an a2a:// URI: ${(error as Error).message}`);
    }
    await saveIdentity(file, identity);
    process.stderr.write(`ocp-team-context: created ${identity.id} in ${file}\n`);
  }

  const { joinTeam } = await import("./team.js");
  const { TeamContextProvider, teamProviderInfo, TEAM_CAPABILITIES } = await import(
    "./provider.js"
  );
  // Serve at once: the handshake needs nothing from the hub; a query waits for the join.
  const joining = joinTeam({ hubUrl, identity, peers: [] }).then(async (agent) => {
    const warn = (error: unknown) =>
      process.stderr.write(`ocp-team-context: ${(error as Error).message ?? String(error)}\n`);
    agent.on("error", warn);
    // Subscribing to peers is best effort: a peer that is away, or a second process of this
    // identity taking the hub connection over, costs the pushed knowledge, not the provider.
    const subscribed = await Promise.allSettled(
      (values.peer ?? []).map((peer) => agent.subscribe(peer, { deliveryMode: "push" })),
    );
    subscribed.forEach((outcome, i) => {
      if (outcome.status === "rejected") {
        warn(new Error(`could not subscribe to ${values.peer?.[i]}: ${String(outcome.reason)}`));
      }
    });
    const served = new TeamContextProvider({
      agent,
      hubUrl,
      name: values.name,
      version,
      deadlineMs,
      teamWaitMs,
      askTeam: values["no-ask-team"] !== true,
    });
    return { agent, served };
  });
  joining.catch((error: unknown) =>
    fail(`cannot join the team at ${hubUrl}: ${(error as Error).message ?? String(error)}`, 1),
  );
  const provider: ContextProvider = {
    id: "team",
    info: teamProviderInfo({ name: values.name, version, hubUrl }),
    capabilities: TEAM_CAPABILITIES,
    query: async (query, options) => (await joining).served.query(query, options),
    shutdown: async () => (await joining).served.shutdown(),
  };
  // Closing waits for nothing that has not happened: a join still under way (a hub that
  // does not answer) must not keep the process from exiting.
  let joined: Awaited<typeof joining> | undefined;
  joining.then(
    (value) => {
      joined = value;
    },
    () => undefined,
  );
  const close = async () => {
    await joined?.served.shutdown();
    await joined?.agent.close().catch(() => undefined);
  };

  if (port === undefined) {
    const { serveStdio } = await import("@ocp/transport-stdio");
    serveStdio(provider, {
      exit: (code) => void close().finally(() => process.exit(code)),
    });
    return;
  }
  const { createHttpProviderServer } = await import("@ocp/transport-http/server");
  const server = createHttpProviderServer(provider, { onShutdown: "acknowledge" });
  const url = await server.listen({ host: values.host ?? "127.0.0.1", port });
  process.stderr.write(`ocp-team-context: listening on ${url}\n`);
  const stop = async (code: number) => {
    await server.close().catch(() => undefined);
    await close();
    process.exit(code);
  };
  process.once("SIGINT", () => void stop(130));
  process.once("SIGTERM", () => void stop(0));
}

main().catch((error: unknown) => fail((error as Error).stack ?? String(error), 1));
