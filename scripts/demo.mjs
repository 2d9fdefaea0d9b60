#!/usr/bin/env node
// The main demo: the demo host asks two demo providers a real question —
// one over stdio indexing this repository's README and docs, one over HTTP
// indexing the package READMEs (egress by definition: consent is recorded
// for it) — and prints the composed, cited context. Run after `pnpm build`.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const providerCli = join(root, "apps", "demo-provider", "dist", "cli.js");
const hostCli = join(root, "apps", "demo-host", "dist", "cli.js");
const question =
  process.argv.slice(2).join(" ") || "How is consent for an egress provider recorded and revoked?";
const STARTUP_TIMEOUT_MS = 60_000;

const packageReadmes = readdirSync(join(root, "packages"))
  .map((name) => join(root, "packages", name, "README.md"))
  .filter((path) => existsSync(path));

const work = mkdtempSync(join(tmpdir(), "ocp-demo-"));
const http = spawn(
  process.execPath,
  [providerCli, "--http", "0", "--name", "ocp-package-docs", ...packageReadmes],
  {
    stdio: ["ignore", "inherit", "pipe"],
  },
);
const cleanup = () => {
  if (http.exitCode === null) http.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
};
process.once("SIGINT", () => {
  cleanup();
  process.exit(130);
});

const url = await new Promise((resolve, reject) => {
  let seen = "";
  const timer = setTimeout(
    () => reject(new Error("the HTTP provider did not start in time")),
    STARTUP_TIMEOUT_MS,
  );
  http.stderr.on("data", (chunk) => {
    process.stderr.write(chunk);
    seen += chunk;
    const match = /listening on (http:\/\/\S+)/.exec(seen);
    if (match) {
      clearTimeout(timer);
      resolve(match[1]);
    }
  });
  http.once("exit", (code) => reject(new Error(`the HTTP provider exited with ${code}`)));
}).catch((error) => {
  console.error(`demo: ${error.message}`);
  cleanup();
  process.exit(1);
});

const config = join(work, "ocp.config.json");
writeFileSync(
  config,
  JSON.stringify(
    {
      providers: [
        {
          id: "repo-docs",
          stdio: {
            command: process.execPath,
            args: [providerCli, join(root, "README.md"), join(root, "docs")],
          },
        },
        { id: "package-docs", http: { url } },
      ],
      consentFile: "consent.jsonl",
    },
    null,
    2,
  ),
);
console.error(
  `demo: asking "${question}" (package-docs is remote, so egress: consent is granted with --grant and recorded)\n`,
);
const host = spawn(
  process.execPath,
  [hostCli, "--config", config, "--grant", "package-docs", "--max-tokens", "1200", question],
  {
    stdio: "inherit",
  },
);
host.once("exit", (code, signal) => {
  cleanup();
  process.exit(code ?? (signal ? 1 : 0));
});
