#!/usr/bin/env node
import { serveStdio } from "@ocp/transport-stdio";
import type { ContextProvider } from "@ocp/types";
import { namedEnv, parseCli, positiveInt, runCli } from "./cli-util.js";
import { bridgeError, toWireError } from "./errors.js";
import { connectMcpProvider } from "./from-mcp.js";
import { CONNECT_TIMEOUT_MS, MCP_REQUEST_TIMEOUT_MS } from "./limits.js";
import type { McpTarget } from "./mcp-session.js";

export const FROM_MCP_HELP = `ocp-from-mcp — serve an MCP server as an Open Context (ocp/1.0-draft) provider

Usage:
  ocp-from-mcp [options] -- COMMAND [ARG...]   spawn an MCP server over stdio
  ocp-from-mcp [options] --url URL             reach an MCP server over streamable HTTP

Speaks Open Context NDJSON on stdin/stdout (logs go to stderr). Each query's
goal ranks the server's resources (BM25 over names, titles, descriptions,
URIs and, when cheap, contents) and the best are read into cited frames
within max_tokens and max_frames; with --tool, the goal goes to that tool.

Options:
  --tool NAME            serve this tool's results instead of resources
  --tool-arg NAME        the tool's string argument the goal fills (default: its
                         first required string argument)
  --env NAME[=VALUE]     pass a variable to the MCP server (repeatable); it gets
                         only PATH, HOME and these
  --egress               declare egress: the MCP server sends data off this machine
                         (an HTTP URL off loopback is egress anyway)
  --connect-timeout MS   bound on starting and initializing the server (default ${CONNECT_TIMEOUT_MS})
  --timeout MS           bound on each MCP request (default ${MCP_REQUEST_TIMEOUT_MS})
  -h, --help             print this help and exit
  -v, --version          print the version and exit

Exit status: 0 after a shutdown request or the end of stdin; 2 on bad usage;
1 when the MCP server cannot be started or reached.
`;

async function main(): Promise<void> {
  const cli = parseCli<{ tool?: string; "tool-arg"?: string; egress?: boolean }>(
    { tool: { type: "string" }, "tool-arg": { type: "string" }, egress: { type: "boolean" } },
    FROM_MCP_HELP,
  );
  if (cli === undefined) return;
  const { values, command, args } = cli;
  const env = namedEnv(values.env);
  const target: McpTarget =
    values.url !== undefined
      ? { kind: "http", url: checkUrl(values.url) }
      : { kind: "stdio", command: command!, args, env };
  const provider = await connectMcpProvider({
    id: "ocp-from-mcp",
    target,
    tool: values.tool,
    toolArgument: values["tool-arg"],
    egress: values.egress === true,
    connectTimeoutMs: positiveInt("--connect-timeout", values["connect-timeout"]),
    requestTimeoutMs: positiveInt("--timeout", values.timeout),
  });
  const served: ContextProvider = {
    id: provider.id,
    info: provider.info,
    capabilities: provider.capabilities,
    protocolVersion: provider.protocolVersion,
    query: (query, options) =>
      provider.query(query, options).catch((error: unknown) => {
        const wire = toWireError(error);
        process.stderr.write(`[ocp-from-mcp] ${wire.message}\n`);
        throw wire;
      }),
    shutdown: () => provider.shutdown(),
  };
  serveStdio(served, { log: (message) => process.stderr.write(`[ocp-from-mcp] ${message}\n`) });
}

function checkUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === "http:" || url.protocol === "https:") return url.href;
  } catch {
    // reported below
  }
  throw bridgeError("usage", `--url takes an http(s) URL, not "${value}"`);
}

runCli("ocp-from-mcp", main);
