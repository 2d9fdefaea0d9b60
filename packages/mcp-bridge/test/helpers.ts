import { execFile, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type StdioProvider, spawnStdioProvider } from "@ocp/transport-stdio";

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

export interface Listening {
  /** The endpoint the server printed on stderr ("listening on URL"). */
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Starts `node ...args` as a child process and waits for the
 * "listening on URL" line it prints on stderr once its socket is bound.
 */
export function listen(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Listening> {
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "ignore", "pipe"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match !== null) resolve({ url: match[1]!, stop });
    });
    child.once("error", reject);
    child.once("exit", (code) =>
      reject(new Error(`${args.join(" ")} exited (${code}) before listening:\n${stderr}`)),
    );
  });
}

/** `ocp-inspect stdio --strict` against `ocp-from-mcp <bridgeArgs>`; the text report. */
export async function inspectBridge(bridgeArgs: readonly string[]): Promise<string> {
  const args = ["stdio", "--strict", "--query", "token budgets", "--"];
  const bridge = [process.execPath, fromMcpCli, ...bridgeArgs];
  const { stdout } = await run(process.execPath, [inspectCli, ...args, ...bridge], {
    timeout: SLOW,
  });
  return stdout;
}

/** `ocp-from-mcp <args>` as a stdio provider with generous bounds, added to `open` to be shut down. */
export async function spawnBridge(
  args: readonly string[],
  open: StdioProvider[],
): Promise<StdioProvider> {
  const provider = await spawnStdioProvider({
    id: "bridge",
    command: process.execPath,
    args: [fromMcpCli, ...args],
    handshakeTimeoutMs: 30_000,
    queryTimeoutMs: 30_000,
  });
  open.push(provider);
  return provider;
}
