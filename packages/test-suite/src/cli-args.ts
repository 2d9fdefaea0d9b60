import { type CliParsed, splitFlag, timeoutArg } from "@ocp/conformance/cli-kit";
import { AGENT_CHECK_NAMES } from "./agent/checks.js";
import { HUB_CHECK_NAMES } from "./checks/index.js";

/** The `--help` text of `ocp-test`. */
export const USAGE = `ocp-test — the a2a+ocp (Organizational Consciousness Protocol 1.0.0)
compatibility test suite (§9.3, §10.4).

usage:
  ocp-test --hub URL [options]
  ocp-test --agent URL [options]
  ocp-test [options] --agent-cmd -- COMMAND [ARGS…]
  ocp-test --help | --version

targets:
  --hub URL     a hub at ws://… or wss://… (subprotocol a2a-ocp-v1); the suite
                registers fresh agents of its own and judges what the hub does.
                Repeat it for the hubs of one cluster: the suite's agents
                connect to each in turn
  --agent URL   an agent that listens at ws://… or wss://… (§10.4); the suite's
                agents connect to it as peers and judge what it does
  --agent-id ID the listening agent's a2a:// id, when it neither names itself
                at registration nor answers a broadcast ocp.awareness.query
  --agent-a2a URL
                with --agent or --agent-cmd: the base http(s) URL of the
                agent's A2A endpoint (its card at /.well-known/agent-card.json),
                when its signed profile carries no agentCard that names it
  --agent-cmd -- COMMAND [ARGS…]
                an agent the suite starts (last on the line): the suite runs a
                hub and passes its URL as the environment variable OCP_HUB_URL
                and in place of every {hub} in ARGS; the agent connects to it.
                The command runs in its own process group and is killed at the
                end; the tail of its stderr is shown in failures

federation (issue 44): checks of a hub federated with the suite's fixture peers
  --federation-fixture DIR
                alone: create the fixture's two hub keys in DIR (kept, 0600)
                and print the "peers" entries to put in the hub's federate
                file (ocp-hub --federate); with --hub: run the federation
                checks as those peers (else they are skipped)
  --federation-link URL
                with --federation-fixture: where the hub accepts hub links
                (its federate file's "listen"), ws://…

options:
  --json        print only the JSON report on stdout
  --strict      advisory checks decide the verdict too
  --timeout MS  bound on one whole check (default 30000)
  --only A,B    run only these checks
  --skip A,B    skip these checks (reported as skipped)
  -h, --help    this text
  -v, --version the suite's version

hub checks: ${HUB_CHECK_NAMES.join(", ")}
agent checks: ${AGENT_CHECK_NAMES.join(", ")}

output: every check with ✓ (pass), ✗ (fail) or – (skipped), the spec sections
it verifies, and evidence; then a verdict line. Advisory checks (SHOULDs and
features a hub may lack) decide only under --strict.

exit codes:
  0  conformant (no deciding check failed)
  1  not conformant
  2  bad usage
`;

export type Parsed = CliParsed<{
  kind: "run";
  target:
    | { hub: string | string[] }
    | { agent: string; agentId?: string; agentA2a?: string }
    | { agentCommand: string[]; agentA2a?: string };
  json: boolean;
  strict: boolean;
  timeoutMs?: number;
  only?: string[];
  skip?: string[];
  federation?: { dir: string; link: string };
}>;

/** `ocp-test --federation-fixture DIR` alone: the fixture directory to create and print; else undefined. */
export function fixtureInit(argv: readonly string[]): string | undefined {
  const [flag, inline] = splitFlag(argv[0] ?? "");
  if (flag !== "--federation-fixture") return undefined;
  const rest = argv.slice(inline === undefined ? 2 : 1);
  const dir = inline ?? argv[1];
  return rest.length === 0 && dir !== undefined && dir !== "" ? dir : undefined;
}

function names(text: string | undefined, flag: string): string[] | string {
  const known = [...HUB_CHECK_NAMES, ...AGENT_CHECK_NAMES];
  if (text === undefined || text.trim() === "") return `${flag} needs check names`;
  const list = text
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  const unknown = list.filter((name) => !known.includes(name));
  return unknown.length > 0 ? `${flag}: unknown check ${unknown.join(", ")}` : list;
}

/** Parses the command line (without `node` and the script). Never throws. */
export function parseArgs(argv: readonly string[]): Parsed {
  let hub: string[] | undefined;
  let agent: string | undefined;
  let agentId: string | undefined;
  let agentCommand: string[] | undefined;
  let agentA2a: string | undefined;
  let json = false;
  let strict = false;
  let timeoutMs: number | undefined;
  let only: string[] | undefined;
  let skip: string[] | undefined;
  let fixtureDir: string | undefined;
  let link: string | undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!;
    const [flag, inline] = splitFlag(arg);
    const value = () => inline ?? argv[++index];
    if (flag === "-h" || flag === "--help") return { kind: "help" };
    if (flag === "-v" || flag === "--version") return { kind: "version" };
    if (flag === "--json") json = true;
    else if (flag === "--strict") strict = true;
    else if (flag === "--hub") {
      const url = value();
      hub = [...(hub ?? []), url ?? ""];
    } else if (flag === "--agent") agent = value();
    else if (flag === "--agent-id") {
      agentId = value();
      if (agentId === undefined || !/^a2a:\/\/\S+$/.test(agentId))
        return { kind: "usage-error", message: "--agent-id needs an a2a:// URI" };
    } else if (flag === "--agent-a2a") {
      agentA2a = value();
      let parsed: URL | undefined;
      try {
        parsed = new URL(agentA2a ?? "");
      } catch {}
      if (parsed === undefined || (parsed.protocol !== "http:" && parsed.protocol !== "https:"))
        return { kind: "usage-error", message: "--agent-a2a needs an http(s) URL" };
    } else if (flag === "--agent-cmd") {
      const rest = argv.slice(index + 1);
      agentCommand = rest[0] === "--" ? rest.slice(1) : rest;
      if (agentCommand.length === 0)
        return {
          kind: "usage-error",
          message: "--agent-cmd needs a command: --agent-cmd -- COMMAND [ARGS…]",
        };
      break;
    } else if (flag === "--federation-fixture") {
      fixtureDir = value();
      if (fixtureDir === undefined || fixtureDir === "")
        return { kind: "usage-error", message: "--federation-fixture needs a directory" };
    } else if (flag === "--federation-link") {
      link = value() ?? "";
      if (!/^wss?:\/\/\S+$/.test(link))
        return { kind: "usage-error", message: "--federation-link needs a ws:// or wss:// URL" };
    } else if (flag === "--timeout") {
      const ms = timeoutArg(value());
      if (typeof ms !== "number") return ms;
      timeoutMs = ms;
    } else if (flag === "--only" || flag === "--skip") {
      const list = names(value(), flag);
      if (typeof list === "string") return { kind: "usage-error", message: list };
      if (flag === "--only") only = list;
      else skip = list;
    } else return { kind: "usage-error", message: `unknown argument ${JSON.stringify(arg)}` };
  }
  const targets = [hub, agent, agentCommand].filter((t) => t !== undefined).length;
  if (targets === 0)
    return {
      kind: "usage-error",
      message: "missing target: --hub URL, --agent URL or --agent-cmd -- COMMAND",
    };
  if (targets > 1)
    return { kind: "usage-error", message: "give one target: --hub, --agent or --agent-cmd" };
  if (agentId !== undefined && agent === undefined)
    return { kind: "usage-error", message: "--agent-id goes with --agent URL" };
  if (agentA2a !== undefined && hub !== undefined)
    return { kind: "usage-error", message: "--agent-a2a goes with --agent or --agent-cmd" };
  if ((fixtureDir !== undefined || link !== undefined) && hub === undefined)
    return {
      kind: "usage-error",
      message: "--federation-fixture and --federation-link go with --hub",
    };
  if ((fixtureDir === undefined) !== (link === undefined))
    return {
      kind: "usage-error",
      message: "the federation checks need both --federation-fixture DIR and --federation-link URL",
    };
  for (const url of [...(hub ?? []), agent]) {
    if (url === undefined) continue;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return { kind: "usage-error", message: `not a URL: ${url}` };
    }
    if (parsed.protocol !== "ws:" && parsed.protocol !== "wss:")
      return { kind: "usage-error", message: `not a ws(s) URL: ${url}` };
  }
  const pool = hub === undefined ? AGENT_CHECK_NAMES : HUB_CHECK_NAMES;
  const foreign = [...(only ?? []), ...(skip ?? [])].filter((name) => !pool.includes(name));
  if (foreign.length > 0)
    return {
      kind: "usage-error",
      message: `not a check of this target: ${foreign.join(", ")} (${hub === undefined ? "agent" : "hub"} checks: ${pool.join(", ")})`,
    };
  return {
    kind: "run",
    target:
      hub !== undefined
        ? { hub: hub.length === 1 ? hub[0]! : hub }
        : agent !== undefined
          ? {
              agent,
              ...(agentId === undefined ? {} : { agentId }),
              ...(agentA2a === undefined ? {} : { agentA2a }),
            }
          : { agentCommand: agentCommand!, ...(agentA2a === undefined ? {} : { agentA2a }) },
    json,
    strict,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(only === undefined ? {} : { only }),
    ...(skip === undefined ? {} : { skip }),
    ...(fixtureDir === undefined || link === undefined
      ? {}
      : { federation: { dir: fixtureDir, link } }),
  };
}
