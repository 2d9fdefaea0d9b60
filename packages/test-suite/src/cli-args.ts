import { HUB_CHECK_NAMES } from "./checks/index.js";

/** The `--help` text of `ocp-test`. */
export const USAGE = `ocp-test — the a2a+ocp (Organizational Consciousness Protocol 1.0.0)
compatibility test suite (§9.3, §10.4).

usage:
  ocp-test --hub URL [--json] [--strict] [--timeout MS] [--only A,B] [--skip A,B]
  ocp-test --help | --version

targets:
  --hub URL     a hub at ws://… or wss://… (subprotocol a2a-ocp-v1); the suite
                registers fresh agents of its own and judges what the hub does

options:
  --json        print only the JSON report on stdout
  --strict      advisory checks decide the verdict too
  --timeout MS  bound on one whole check (default 30000)
  --only A,B    run only these checks
  --skip A,B    skip these checks (reported as skipped)
  -h, --help    this text
  -v, --version the suite's version

checks: ${HUB_CHECK_NAMES.join(", ")}

output: every check with ✓ (pass), ✗ (fail) or – (skipped), the spec sections
it verifies, and evidence; then a verdict line. Advisory checks (SHOULDs and
features a hub may lack) decide only under --strict.

exit codes:
  0  conformant (no deciding check failed)
  1  not conformant
  2  bad usage
`;

export type Parsed =
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "usage-error"; message: string }
  | {
      kind: "run";
      hub: string;
      json: boolean;
      strict: boolean;
      timeoutMs?: number;
      only?: string[];
      skip?: string[];
    };

function names(text: string | undefined, flag: string): string[] | string {
  if (text === undefined || text.trim() === "") return `${flag} needs check names`;
  const list = text
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  const unknown = list.filter((name) => !HUB_CHECK_NAMES.includes(name));
  return unknown.length > 0 ? `${flag}: unknown check ${unknown.join(", ")}` : list;
}

/** Parses the command line (without `node` and the script). Never throws. */
export function parseArgs(argv: readonly string[]): Parsed {
  let hub: string | undefined;
  let json = false;
  let strict = false;
  let timeoutMs: number | undefined;
  let only: string[] | undefined;
  let skip: string[] | undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!;
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=")
        ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
        : [arg, undefined];
    const value = () => inline ?? argv[++index];
    if (flag === "-h" || flag === "--help") return { kind: "help" };
    if (flag === "-v" || flag === "--version") return { kind: "version" };
    if (flag === "--json") json = true;
    else if (flag === "--strict") strict = true;
    else if (flag === "--hub") hub = value();
    else if (flag === "--timeout") {
      const text = value();
      timeoutMs = Number(text);
      if (text === undefined || !/^\d+$/.test(text) || timeoutMs <= 0)
        return {
          kind: "usage-error",
          message: "--timeout needs a positive number of milliseconds",
        };
    } else if (flag === "--only" || flag === "--skip") {
      const list = names(value(), flag);
      if (typeof list === "string") return { kind: "usage-error", message: list };
      if (flag === "--only") only = list;
      else skip = list;
    } else return { kind: "usage-error", message: `unknown argument ${JSON.stringify(arg)}` };
  }
  if (hub === undefined) return { kind: "usage-error", message: "missing target: --hub URL" };
  let url: URL;
  try {
    url = new URL(hub);
  } catch {
    return { kind: "usage-error", message: `not a URL: ${hub}` };
  }
  if (url.protocol !== "ws:" && url.protocol !== "wss:")
    return { kind: "usage-error", message: `not a ws(s) URL: ${hub}` };
  return {
    kind: "run",
    hub,
    json,
    strict,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(only === undefined ? {} : { only }),
    ...(skip === undefined ? {} : { skip }),
  };
}
