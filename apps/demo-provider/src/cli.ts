#!/usr/bin/env node
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { serveStdio } from "@ocp/transport-stdio";
import { progressBar } from "./progress.js";

const HELP = `ocp-demo-provider — an Open Context Protocol provider over a directory tree, for
ocp/1.0-draft and contextgraph/1.0-draft hosts alike (each host's handshake picks)

Usage:
  ocp-demo-provider [options] [PATH...]

Indexes every PATH (directories or files; default: this repository's README.md
and docs/) and answers queries with BM25-ranked frames: Markdown split by
heading into doc frames, source split into symbol and snippet frames, each
with its line range, a sha256 digest of the exact bytes served, a citation
label like "guide.md L10-42" and an o200k_base BPE token cost. Under
contextgraph/1.0-draft a frame costs ceil(utf8 bytes / 4) (B3; the BPE count
rides as canonical_token_cost), carries a content_digest and, as valid_from,
its file's modification time (as_of is honoured), its file provenance digests
the exact bytes cited, and verify re-reads the files (edited: stale, deleted:
gone). Skips hidden files, node_modules, .gitignore'd paths, binaries and
files over 1 MiB.

Serves NDJSON on stdin/stdout by default (stdout carries only protocol
messages; progress and logs go to stderr).

Options:
  --http PORT        serve JSON over HTTP on PORT instead of stdio (0 = any free port)
  --host ADDR        address to listen on with --http (default 127.0.0.1, loopback only)
  --token-env NAME   with --http, require "Authorization: Bearer <token>" where the
                     token is read from the environment variable NAME
  --name NAME        provider name announced at the handshake (default ocp-demo-provider)
  --quiet            no progress or summary on stderr
  -h, --help         print this help and exit
  -v, --version      print the version and exit

Exit status: 0 after a shutdown request or the end of stdin; 2 on bad usage;
1 when indexing or serving fails.`;

interface PackageJson {
  readonly version: string;
}

function fail(message: string, code: number): never {
  process.stderr.write(`ocp-demo-provider: ${message}\n`);
  process.exit(code);
}

/** This repository's README.md and docs/, when the CLI runs from a checkout. */
function defaultRoots(): string[] {
  const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
  const roots = [join(repo, "README.md"), join(repo, "docs")].filter((path) => existsSync(path));
  return roots.length > 0 ? roots : [process.cwd()];
}

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (error) {
    fail(`${(error as Error).message}\nTry --help.`, 2);
  }
  const { values, positionals } = parsed;
  const version = (
    JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as PackageJson
  ).version;
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  if (values.version) {
    process.stdout.write(`${version}\n`);
    return;
  }
  const roots = positionals.length > 0 ? positionals : defaultRoots();
  for (const root of roots) if (!existsSync(root)) fail(`no such file or directory: ${root}`, 2);
  let port: number | undefined;
  if (values.http !== undefined) {
    port = Number(values.http);
    if (!Number.isInteger(port) || port < 0 || port > 65_535)
      fail(`--http takes a port number, not "${values.http}"`, 2);
  }
  if (values["token-env"] !== undefined && port === undefined)
    fail("--token-env goes with --http", 2);

  // Loaded only now: the BPE tables make this import the slow part of a start.
  const { Corpus } = await import("./corpus.js");
  const { DemoProvider } = await import("./provider.js");
  const bar = values.quiet ? undefined : progressBar();
  const started = Date.now();
  const corpus = await Corpus.build(roots, { onProgress: (p) => bar?.update(p) });
  bar?.done(
    `ocp-demo-provider: indexed ${corpus.files} files (${(corpus.bytes / 1e6).toFixed(2)} MB) into ${corpus.entries.length} frames in ${Date.now() - started} ms`,
  );
  const provider = new DemoProvider(corpus, { name: values.name, version });

  if (port === undefined) {
    serveStdio(provider);
    return;
  }
  const { serveHttp } = await import("./http.js");
  await serveHttp(provider, {
    port,
    host: values.host ?? "127.0.0.1",
    tokenEnv: values["token-env"],
    quiet: values.quiet ?? false,
  });
}

function parse() {
  return parseArgs({
    allowPositionals: true,
    strict: true,
    options: {
      http: { type: "string" },
      host: { type: "string" },
      "token-env": { type: "string" },
      name: { type: "string" },
      quiet: { type: "boolean" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
    },
  });
}

main().catch((error: unknown) => fail((error as Error).stack ?? String(error), 1));
