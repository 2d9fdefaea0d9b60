import { type CliParsed, splitFlag, timeoutArg } from "./cli-kit.js";
import type { FamilyChoice } from "./family.js";
import type { Target } from "./targets.js";

/** The `--help` text of `ocp-inspect`. */
export const USAGE = `ocp-inspect — probe an Open Context Protocol (ocp/1.0-draft) provider and run
the conformance suite against it.

usage:
  ocp-inspect stdio [--family F] [--query Q] [--max-tokens N] [--json] [--strict] [--timeout MS] -- PROGRAM [ARGS…]
  ocp-inspect http  [--family F] [--query Q] [--max-tokens N] [--json] [--strict] [--timeout MS] URL
  ocp-inspect host  [--json]
  ocp-inspect host  --family contextgraph [--json] [--grant-flag FLAG] -- HOST_COMMAND [ARGS…]
  ocp-inspect --help | --version

commands:
  stdio   spawn PROGRAM ARGS… (after --) as a provider speaking NDJSON on stdio
  http    reach a provider that answers one envelope per POST at URL
  host    run the host-side harness against @ocp/host (H3, B2, C1, C2, C4, R3,
          crash isolation)

options:
  --family F    which rulebook judges: ocp (default, ocp/1.0-draft),
                contextgraph (contextgraph/1.0-draft: upstream's checks), or
                auto (offer contextgraph/1.0-draft; a provider that refuses it
                by name, code incompatible_version, is judged under ocp/1).
                host: contextgraph runs CGP's host scenarios over the wire
                against HOST_COMMAND (see the README)
  --grant-flag FLAG  host --family contextgraph: the host command's flag that
                records consent for a provider id (default --grant)
  --query Q     the goal of the probe query; its frames are printed (title,
                score, token cost, citation) and every frame check uses them.
                Default: the reference's probe, "conformance probe: …"
  --max-tokens N  the probe query's budget (default 4096, the reference's); a
                tight one shows how the provider fits it
  --json        print only the JSON report on stdout (diagnostics go to stderr)
  --strict      advisory checks (kinds-filter, max-frames, correlation) decide
                the verdict too
  --timeout MS  how long one query, and the answer to the foreign-version
                handshake (H3), may take (default 10000)
  -h, --help    this text
  -v, --version the version of ocp-inspect

output: the negotiated identity, data flow and capabilities; the frames of the
probe query; every check with ✓ (pass), ✗ (fail) or – (skipped), the
requirement ids it verifies, and evidence naming the exact violation; then a
verdict line. Deciding checks: handshake (H1, H2), version-mismatch (H3),
frame-validity (F1-F3), budget-honesty (B1), cost-truth (T1: token_cost at
least half the o200k_base count of the content), schema (S1: every message
validates against ocp-envelope.schema.json), malformed-input-tolerance (R1:
over stdio the provider survives bad lines; over HTTP each bad request gets a
4xx OCP error, code bad_request), shutdown-clean (R2: a stdio provider exits 0;
an HTTP one acknowledges, then is gone, still serving, or refuses with a 5xx
shutting_down or unavailable error). Advisory: kinds-filter (K1), max-frames (M1),
correlation (X-CORR, when declared).

exit codes:
  0  conformant (no deciding check failed)
  1  not conformant
  2  bad usage
`;

export type Parsed = CliParsed<
  | { kind: "host"; json: boolean }
  | { kind: "cgp-host"; json: boolean; command: string; args: string[]; grantFlag: string }
  | {
      kind: "provider";
      target: Target;
      /** Absent: ocp (the default). */
      family?: FamilyChoice;
      json: boolean;
      strict: boolean;
      goal?: string;
      timeoutMs?: number;
      maxTokens?: number;
    }
>;

/** Parses the command line (without `node` and the script). Never throws. */
export function parseArgs(argv: readonly string[]): Parsed {
  const [command, ...rest] = argv;
  if (command === undefined)
    return { kind: "usage-error", message: "missing command (stdio, http or host)" };
  if (command === "-h" || command === "--help" || command === "help") return { kind: "help" };
  if (command === "-v" || command === "--version") return { kind: "version" };
  if (command !== "stdio" && command !== "http" && command !== "host") {
    return { kind: "usage-error", message: `unknown command ${JSON.stringify(command)}` };
  }
  let json = false;
  let strict = false;
  let goal: string | undefined;
  let timeoutMs: number | undefined;
  let maxTokens: number | undefined;
  let family: FamilyChoice | undefined;
  let grantFlag: string | undefined;
  const positional: string[] = [];
  let program: string[] | undefined;
  for (let index = 0; index < rest.length; index += 1) {
    const arg = rest[index]!;
    if (arg === "--") {
      program = rest.slice(index + 1);
      break;
    }
    const [flag, inline] = splitFlag(arg);
    const value = () => inline ?? rest[++index];
    if (flag === "-h" || flag === "--help") return { kind: "help" };
    if (flag === "--json") json = true;
    else if (flag === "--family") {
      const text = value();
      if (text !== "ocp" && text !== "contextgraph" && (text !== "auto" || command === "host"))
        return {
          kind: "usage-error",
          message:
            command === "host"
              ? "--family needs ocp or contextgraph for host"
              : "--family needs ocp, contextgraph or auto",
        };
      family = text;
    } else if (flag === "--grant-flag" && command === "host") {
      grantFlag = value();
      if (grantFlag === undefined || !grantFlag.startsWith("-"))
        return { kind: "usage-error", message: "--grant-flag needs a flag, such as --grant" };
    } else if (flag === "--strict" && command !== "host") strict = true;
    else if (flag === "--query" && command !== "host") {
      goal = value();
      if (goal === undefined || goal.trim() === "")
        return { kind: "usage-error", message: "--query needs a non-empty goal" };
    } else if (flag === "--timeout" && command !== "host") {
      const ms = timeoutArg(value());
      if (typeof ms !== "number") return ms;
      timeoutMs = ms;
    } else if (flag === "--max-tokens" && command !== "host") {
      const text = value();
      maxTokens = Number(text);
      if (text === undefined || !/^\d+$/.test(text) || maxTokens <= 0 || maxTokens > 0xffff_ffff) {
        return {
          kind: "usage-error",
          message: "--max-tokens needs a positive whole number of tokens (at most 4294967295)",
        };
      }
    } else if (flag.startsWith("-"))
      return { kind: "usage-error", message: `unknown option ${flag} for ${command}` };
    else positional.push(arg);
  }
  if (command === "host") {
    if (family === "contextgraph") {
      const [hostCommand, ...hostArgs] = program ?? [];
      if (positional.length > 0 || hostCommand === undefined || hostCommand === "")
        return {
          kind: "usage-error",
          message: "host --family contextgraph needs the host command after --",
        };
      return {
        kind: "cgp-host",
        json,
        command: hostCommand,
        args: hostArgs,
        grantFlag: grantFlag ?? "--grant",
      };
    }
    if (positional.length > 0 || program !== undefined || grantFlag !== undefined)
      return { kind: "usage-error", message: "host takes no arguments" };
    return { kind: "host", json };
  }
  const common = {
    ...(family === undefined ? {} : { family }),
    json,
    strict,
    ...(goal === undefined ? {} : { goal }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(maxTokens === undefined ? {} : { maxTokens }),
  };
  if (command === "stdio") {
    if (positional.length > 0)
      return {
        kind: "usage-error",
        message: `put the provider command after --: ocp-inspect stdio -- ${positional.join(" ")}`,
      };
    const [programName, ...args] = program ?? [];
    if (programName === undefined || programName === "")
      return { kind: "usage-error", message: "stdio needs the provider command after --" };
    return { kind: "provider", target: { command: programName, args }, ...common };
  }
  if (program !== undefined || positional.length !== 1)
    return { kind: "usage-error", message: "http needs exactly one URL" };
  const url = positional[0]!;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { kind: "usage-error", message: `not a URL: ${url}` };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    return { kind: "usage-error", message: `not an http(s) URL: ${url}` };
  return { kind: "provider", target: { url }, ...common };
}
