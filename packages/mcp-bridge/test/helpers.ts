import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const run = promisify(execFile);
const require = createRequire(import.meta.url);

/** This package's root directory. */
export const root = fileURLToPath(new URL("..", import.meta.url));
export const fromMcpCli = join(root, "dist", "from-mcp-cli.js");
export const toMcpCli = join(root, "dist", "to-mcp-cli.js");
export const notesServer = join(root, "examples", "notes-server.mjs");
export const trickyProvider = join(root, "test", "fixtures", "tricky-provider.mjs");
export const inspectCli = join(
  dirname(require.resolve("@ocp/conformance/package.json")),
  "dist",
  "cli.js",
);
export const demoProviderCli = join(
  dirname(require.resolve("@ocp/demo-provider/package.json")),
  "dist",
  "cli.js",
);

/** A generous bound per test: real child processes on a shared, loaded machine. */
export const SLOW = 60_000;
