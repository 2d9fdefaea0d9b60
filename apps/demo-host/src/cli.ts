#!/usr/bin/env node
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { userInfo } from "node:os";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ConsentStore, compose, Host } from "@ocp/host";
import { FRAME_KINDS, type FrameKind, isOcpError } from "@ocp/types";
import { type Config, loadConfig, type ProviderEntry, parseProviderFlag } from "./config.js";
import { askConsent } from "./consent-prompt.js";
import { describeProviders, renderJson, renderText } from "./report.js";

const HELP = `ocp-demo-host — ask Open Context Protocol providers for context and compose it

Usage:
  ocp-demo-host [options] QUESTION...

Reads providers from ocp.config.json (or --config FILE) and from --stdio /
--http flags, handshakes with all, shows each one's identity and data flow,
asks for consent before querying an egress provider (every HTTP provider is
egress), remembers consent in a consent file, fans the question out and
prints the composed prompt section with fenced, cited frames, the frames
used, what was dropped and why, and per-provider latency and tokens.

Options:
  --config FILE        providers file (default ./ocp.config.json when present)
  --stdio ID=CMD       add a stdio provider: ID=COMMAND ARG... (split on spaces)
  --http ID=URL        add an HTTP provider (https://, or http:// on loopback)
  --grant ID           consent to egress provider ID without asking (repeatable)
  --consent-file FILE  where consent receipts live (default .ocp/consent.jsonl)
  --max-tokens N       budget of the composed section, o200k tokens (default 2000)
  --max-frames N       frames asked of each provider (default 8)
  --kinds LIST         frame kinds to ask for, comma-separated (default: any)
  --anchor URI         an open file or symbol to boost (repeatable)
  --timeout MS         per-provider timeout (default from the host: 5000)
  --json               print one JSON document on stdout instead of the report
  -h, --help           print this help and exit

On a terminal, an egress provider without consent is asked about; elsewhere
it is left out (reported as consent_required) unless --grant names it.
Ctrl-C during a query shuts every provider down before exiting (status 130).

Exit status: 0 when the question was answered (even with failed providers),
1 when no provider could be started, 2 on bad usage.

Config file:
  { "providers": [
      { "id": "docs", "stdio": { "command": "ocp-demo-provider", "args": ["docs"] } },
      { "id": "wiki", "http": { "url": "https://wiki.example/ocp", "tokenEnv": "WIKI_TOKEN" } } ],
    "consentFile": ".ocp/consent.jsonl", "timeoutMs": 5000 }`;

const DEFAULT_MAX_TOKENS = 2000;
const DEFAULT_MAX_FRAMES = 8;

class UsageError extends Error {}

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
      "max-tokens": { type: "string" },
      "max-frames": { type: "string" },
      kinds: { type: "string" },
      anchor: { type: "string", multiple: true },
      timeout: { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}

async function addProvider(host: Host, entry: ProviderEntry): Promise<void> {
  const timeoutMs = entry.timeoutMs;
  if ("stdio" in entry) {
    await host.addStdio({
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
  await host.addHttp({ id: entry.id, url: entry.http.url, token, timeoutMs });
}

async function main(): Promise<number> {
  const { values, positionals } = parse();
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const question = positionals.join(" ").trim();
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
  ];
  if (entries.length === 0) throw new UsageError("no providers: use --config, --stdio or --http");

  const consentPath = resolve(values["consent-file"] ?? config.consentFile ?? ".ocp/consent.jsonl");
  await mkdir(dirname(consentPath), { recursive: true });
  const consent = await ConsentStore.open(consentPath);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const host = new Host({ consent, legTimeoutMs: timeout ?? config.timeoutMs, warn: log });

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
    added.forEach((outcome, i) => {
      if (outcome.status === "rejected") {
        const error = outcome.reason as Error;
        log(
          `provider ${entries[i]?.id} not started: ${isOcpError(error) ? `${error.code}: ` : ""}${error.message}`,
        );
      }
    });
    if (host.list().length === 0) {
      log("no provider could be started");
      return 1;
    }
    if (!values.json) process.stderr.write(`${describeProviders(host.list())}\n\n`);

    const grants = new Set(values.grant ?? []);
    const interactive = process.stdin.isTTY === true && process.stderr.isTTY === true;
    const grantedBy = `${userInfo().username} (ocp-demo-host)`;
    for (const listing of host.list().filter((p) => p.consent === "required")) {
      const whatLeaves = host.whatLeaves(listing.id);
      if (grants.has(listing.id)) {
        await host.grantConsent(listing.id, { grantedBy: `${grantedBy} --grant`, whatLeaves });
      } else if (interactive && !interrupted && (await askConsent(listing, whatLeaves))) {
        await host.grantConsent(listing.id, { grantedBy, whatLeaves });
      } else {
        log(
          `${listing.id}: no consent for egress; it will not be queried (--grant ${listing.id} to allow)`,
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
        max_tokens: maxTokens,
      },
      { signal: aborter.signal },
    );
    if (interrupted) return 130;
    const composition = compose(fanOut, { maxTokens });
    const report = { question, providers: host.list(), fanOut, composition };
    process.stdout.write(values.json ? renderJson(report) : renderText(report));
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
