#!/usr/bin/env node
import { existsSync, readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { userInfo } from "node:os";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  ConsentStore,
  compose,
  countTokens,
  Host,
  type ProviderListing,
  ReceiptLedger,
} from "@ocp/host";
import { COMPOSE_PREAMBLE } from "@ocp/host/internal";
import { FRAME_KINDS, type FrameKind, isOcpError } from "@ocp/types";
import { isOffMachineScope } from "@ocp/types/cgp";
import {
  type Config,
  loadConfig,
  type ProviderEntry,
  parseFamilies,
  parseProviderFlag,
  parseStdioArgv,
} from "./config.js";
import { askConsent } from "./consent-prompt.js";
import {
  describeProviders,
  type NotStarted,
  renderJson,
  renderNoProvider,
  renderText,
} from "./report.js";

const HELP = `ocp-demo-host — ask Open Context (ocp/1) and Context Graph (contextgraph/1) providers for context and compose it

Usage:
  ocp-demo-host [options] QUESTION...
  ocp-demo-host [options] QUESTION... -- ID=COMMAND [ARG...]

Reads providers from ocp.config.json (or --config FILE) and from --stdio /
--http flags, handshakes with all, shows each one's identity and data flow,
asks for consent before querying an egress provider (every HTTP provider is
egress), remembers consent in a consent file, fans the question out and
prints the composed prompt section with fenced, cited frames, the frames
used, what was dropped and why, and per-provider latency and tokens.

Options:
  --config FILE        providers file (default ./ocp.config.json when present)
  --stdio ID=CMD       add a stdio provider: ID=COMMAND ARG..., split into words
                       like a shell does: quote a path with spaces,
                       --stdio 'docs=node "/my docs/cli.js"'
  -- ID=COMMAND ARG... after every option and the question: one more stdio
                       provider whose command and arguments are taken verbatim,
                       one per argument, never split (any path works)
  --http ID=URL        add an HTTP provider (https://, or http:// on loopback)
  --grant ID           consent to egress provider ID without asking (repeatable);
                       for a contextgraph provider, one receipt per off-machine
                       egress scope it declares
  --consent-file FILE  where consent receipts live (default .ocp/consent.jsonl)
  --receipts-file FILE where contextgraph scope receipts live
                       (default .ocp/scope-receipts.jsonl)
  --family LIST        protocol family offered to providers that name none:
                       ocp (ocp/1.0-draft, the default), contextgraph
                       (contextgraph/1.0-draft), or both in the order to try,
                       e.g. contextgraph,ocp: a provider refusing the first by
                       name is handshaken again in the next
  --trust-root DIR     re-read files under DIR to check contextgraph file
                       provenance digests (F5 bytes); an answer whose digest
                       does not match the bytes is dropped (repeatable)
  --max-tokens N       budget of the composed section, o200k tokens (default 2000);
                       each provider is asked for this less the room the fences
                       and preamble take (64 per frame asked), at least half
  --max-frames N       frames asked of each provider (default 8)
  --kinds LIST         frame kinds to ask for, comma-separated (default: any)
  --anchor URI         an open file or symbol to boost (repeatable)
  --timeout MS         per-provider timeout (default 10000, or the config's timeoutMs)
  --json               print one JSON document on stdout instead of the report
  -h, --help           print this help and exit
  -v, --version        print the version and exit

On a terminal, an egress provider without consent is asked about; elsewhere
it is left out (reported as consent_required) unless --grant names it.
Ctrl-C during a query shuts every provider down before exiting (status 130).

Exit status: 0 when at least one provider answered (even if others failed),
1 when no provider could be started, 2 on bad usage, 3 when providers were
started but none answered (every one failed, timed out, was refused consent,
or was dropped for breaking the protocol), 130 when interrupted.

Config file:
  { "providers": [
      { "id": "docs", "stdio": { "command": "ocp-demo-provider", "args": ["my docs"] } },
      { "id": "wiki", "http": { "url": "https://wiki.example/ocp", "tokenEnv": "WIKI_TOKEN" },
        "family": ["contextgraph", "ocp"] } ],
    "consentFile": ".ocp/consent.jsonl", "timeoutMs": 10000, "family": "ocp" }
  Arguments in "args" are passed verbatim: paths with spaces need no quoting.`;

const DEFAULT_MAX_TOKENS = 2000;
const DEFAULT_MAX_FRAMES = 8;
/** Tokens kept, per frame asked, for its fence markers (cite, title, uri, provenance). */
const FENCE_ALLOWANCE = 64;
/** Exit status when providers were started but none of them answered. */
const EXIT_NO_ANSWER = 3;

/**
 * What each provider is asked for: the composed section's budget less the
 * preamble and a fence allowance per frame, so what a provider fills its
 * budget with still fits once fenced; never less than half the budget.
 */
function providerBudget(maxTokens: number, maxFrames: number): number {
  const room = maxTokens - countTokens(`${COMPOSE_PREAMBLE}\n`) - FENCE_ALLOWANCE * maxFrames;
  return Math.max(Math.ceil(maxTokens / 2), room);
}

class UsageError extends Error {}

/**
 * Consent as the provider's family needs it: the egress grant, and for a
 * contextgraph provider one receipt per off-machine scope it declares (C6).
 */
async function grantAll(
  host: Host,
  listing: ProviderListing,
  grantedBy: string,
  whatLeaves: string,
): Promise<void> {
  if (listing.egress) await host.grantConsent(listing.id, { grantedBy, whatLeaves });
  for (const scope of (listing.egressScopes ?? []).filter(isOffMachineScope)) {
    await host.grantScope(listing.id, scope, { kind: "human", id: grantedBy });
  }
}

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw new UsageError(`--${name} takes a positive whole number, not "${value}"`);
  return n;
}

function parse() {
  return parseArgs({
    allowPositionals: true,
    strict: true,
    options: {
      config: { type: "string" },
      stdio: { type: "string", multiple: true },
      http: { type: "string", multiple: true },
      grant: { type: "string", multiple: true },
      "consent-file": { type: "string" },
      "receipts-file": { type: "string" },
      family: { type: "string" },
      "trust-root": { type: "string", multiple: true },
      "max-tokens": { type: "string" },
      "max-frames": { type: "string" },
      kinds: { type: "string" },
      anchor: { type: "string", multiple: true },
      timeout: { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
    },
    tokens: true,
  });
}

async function addProvider(host: Host, entry: ProviderEntry): Promise<void> {
  const timeoutMs = entry.timeoutMs;
  const families = parseFamilies(entry.family, `family of ${entry.id}`);
  const offer = families === undefined ? {} : { families };
  if ("stdio" in entry) {
    await host.addStdio({
      ...offer,
      id: entry.id,
      command: entry.stdio.command,
      args: entry.stdio.args,
      cwd: entry.stdio.cwd,
      env: entry.stdio.env,
      timeoutMs,
    });
    return;
  }
  const token = entry.http.tokenEnv === undefined ? undefined : process.env[entry.http.tokenEnv];
  if (entry.http.tokenEnv !== undefined && token === undefined) {
    throw new Error(
      `environment variable ${entry.http.tokenEnv} (token of ${entry.id}) is not set`,
    );
  }
  await host.addHttp({ ...offer, id: entry.id, url: entry.http.url, token, timeoutMs });
}

async function main(): Promise<number> {
  const { values, tokens } = parse();
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (values.version) {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    process.stdout.write(`${(pkg as { version: string }).version}\n`);
    return 0;
  }
  // Words before `--` are the question; after it, one verbatim stdio provider.
  const end = tokens.find((t) => t.kind === "option-terminator")?.index ?? Number.POSITIVE_INFINITY;
  const words = tokens.filter((t) => t.kind === "positional");
  const question = words
    .filter((t) => t.index < end)
    .map((t) => t.value)
    .join(" ")
    .trim();
  const afterDashes = words.filter((t) => t.index > end).map((t) => t.value);
  if (question === "") throw new UsageError("a QUESTION is required");
  const maxTokens = positiveInt("max-tokens", values["max-tokens"], DEFAULT_MAX_TOKENS);
  const maxFrames = positiveInt("max-frames", values["max-frames"], DEFAULT_MAX_FRAMES);
  const timeout =
    values.timeout === undefined ? undefined : positiveInt("timeout", values.timeout, 0);
  const kinds = (values.kinds ?? "").split(",").filter(Boolean);
  for (const kind of kinds) {
    if (!(FRAME_KINDS as readonly string[]).includes(kind)) {
      throw new UsageError(`--kinds: "${kind}" is not one of ${FRAME_KINDS.join(", ")}`);
    }
  }

  const configPath =
    values.config ?? (existsSync("ocp.config.json") ? "ocp.config.json" : undefined);
  const config: Config = configPath ? await loadConfig(configPath) : { providers: [] };
  const entries = [
    ...config.providers,
    ...(values.stdio ?? []).map((v) => parseProviderFlag("stdio", v)),
    ...(values.http ?? []).map((v) => parseProviderFlag("http", v)),
    ...(end === Number.POSITIVE_INFINITY ? [] : [parseStdioArgv(afterDashes)]),
  ];
  if (entries.length === 0) throw new UsageError("no providers: use --config, --stdio or --http");

  const consentPath = resolve(values["consent-file"] ?? config.consentFile ?? ".ocp/consent.jsonl");
  await mkdir(dirname(consentPath), { recursive: true });
  const consent = await ConsentStore.open(consentPath);
  const receiptsPath = resolve(
    values["receipts-file"] ?? config.receiptsFile ?? ".ocp/scope-receipts.jsonl",
  );
  const receipts = await ReceiptLedger.open(receiptsPath);
  const families = parseFamilies(values.family ?? config.family, "--family");
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const host = new Host({
    consent,
    receipts,
    ...(families === undefined ? {} : { families }),
    trustedRoots: (values["trust-root"] ?? []).map((dir) => resolve(dir)),
    legTimeoutMs: timeout ?? config.timeoutMs,
    warn: log,
  });

  const aborter = new AbortController();
  let interrupted = false;
  const onSigint = () => {
    interrupted = true;
    log("interrupted: shutting every provider down");
    aborter.abort(new Error("interrupted"));
  };
  process.on("SIGINT", onSigint);
  process.on("SIGTERM", onSigint);

  try {
    const added = await Promise.allSettled(entries.map((entry) => addProvider(host, entry)));
    const notStarted: NotStarted[] = [];
    added.forEach((outcome, i) => {
      if (outcome.status === "rejected") {
        const error = outcome.reason as Error;
        const code = isOcpError(error) ? error.code : "error";
        notStarted.push({ providerId: entries[i]?.id ?? "", code, message: error.message });
        log(
          `provider ${entries[i]?.id} not started: ${isOcpError(error) ? `${error.code}: ` : ""}${error.message}`,
        );
      }
    });
    if (host.list().length === 0) {
      log("no provider could be started");
      if (values.json) process.stdout.write(renderNoProvider(question, notStarted));
      return 1;
    }
    const grants = new Set(values.grant ?? []);
    const interactive = process.stdin.isTTY === true && process.stderr.isTTY === true;
    // The report on stdout shows the providers; on a terminal that is about to
    // be asked for consent, show them first (on stderr, with the question).
    const asking = host.list().some((p) => p.consent === "required" && !grants.has(p.id));
    if (!values.json && interactive && asking) {
      process.stderr.write(`${describeProviders(host.list())}\n\n`);
    }
    const grantedBy = `${userInfo().username} (ocp-demo-host)`;
    for (const listing of host.list().filter((p) => p.consent === "required")) {
      const whatLeaves = host.whatLeaves(listing.id);
      if (grants.has(listing.id)) {
        await grantAll(host, listing, `${grantedBy} --grant`, whatLeaves);
      } else if (interactive && !interrupted && (await askConsent(listing, whatLeaves))) {
        await grantAll(host, listing, grantedBy, whatLeaves);
      } else {
        const scopes = (listing.egressScopes ?? []).filter(isOffMachineScope);
        const what = scopes.length > 0 ? `egress scopes ${scopes.join(", ")}` : "egress";
        log(
          `${listing.id}: no consent for ${what}; it will not be queried (--grant ${listing.id} to allow)`,
        );
      }
    }
    for (const id of grants) {
      if (!host.list().some((p) => p.id === id)) log(`--grant ${id}: no such provider`);
    }
    if (interrupted) return 130;

    const fanOut = await host.queryAll(
      {
        goal: question,
        query_text: question,
        kinds: kinds as FrameKind[],
        anchors: values.anchor ?? [],
        max_frames: maxFrames,
        max_tokens: providerBudget(maxTokens, maxFrames),
      },
      { signal: aborter.signal },
    );
    if (interrupted) return 130;
    const composition = compose(fanOut, { maxTokens });
    const report = { question, providers: host.list(), notStarted, fanOut, composition };
    process.stdout.write(values.json ? renderJson(report) : renderText(report));
    if (!fanOut.usage.some((u) => u.outcome === "ok")) {
      log("no provider answered");
      return EXIT_NO_ANSWER;
    }
    return 0;
  } finally {
    const shutdown = await host.shutdown();
    for (const straggler of shutdown.stragglers) {
      log(
        `provider ${straggler.providerId} did not shut down cleanly (${straggler.reason}): ${straggler.error.message}`,
      );
    }
    process.off("SIGINT", onSigint);
    process.off("SIGTERM", onSigint);
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const code = (error as { code?: unknown }).code;
    const usage =
      error instanceof UsageError ||
      (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS")) ||
      isOcpError(error, "usage");
    process.stderr.write(
      `ocp-demo-host: ${(error as Error).message}${usage ? "\nTry --help." : ""}\n`,
    );
    process.exit(usage ? 2 : 1);
  },
);
