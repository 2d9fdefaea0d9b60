#!/usr/bin/env node
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { ProtocolFamily } from "@ocp/types";
import {
  namedEnv,
  packageVersion,
  parseCli,
  positiveInt,
  runCli,
  watchLineLength,
} from "./cli-util.js";
import { bridgeError } from "./errors.js";
import {
  CONNECT_TIMEOUT_MS,
  MAX_CLIENT_LINE_BYTES,
  PROVIDER_QUERY_TIMEOUT_MS,
  SHUTDOWN_GRACE_MS,
} from "./limits.js";
import { ProviderHandle, type ProviderTarget } from "./provider-handle.js";
import { createOcpMcpServer } from "./to-mcp.js";

export const TO_MCP_HELP = `ocp-to-mcp — serve an Open Context provider (ocp/1.0-draft or
contextgraph/1.0-draft) as an MCP server

Usage:
  ocp-to-mcp [options] -- COMMAND [ARG...]   spawn a provider over stdio
  ocp-to-mcp [options] --url URL             reach a provider over HTTP

Speaks MCP on stdin/stdout (logs go to stderr). Offers the tool
query_context(goal, max_tokens?, kinds?, max_frames?), whose answer is the
provider's frames as fenced, cited text plus a resource link per frame; the
latest frames are listed as resources, and ocp://provider describes the
provider. An egress provider (any provider over HTTP, or one that declares
egress) is queried only with consent: --grant, or asked through the MCP
client (elicitation); without either, query_context answers consent_required.

Options:
  --family LIST          protocol family offered to the provider: ocp
                         (ocp/1.0-draft, the default), contextgraph
                         (contextgraph/1.0-draft), or both in the order to try,
                         e.g. contextgraph,ocp: a provider refusing the first by
                         name is handshaken again in the next. Any but ocp goes
                         through @ocp/host, which applies that family's rules
  --grant NAME           consent to send goals to the egress provider NAME (its
                         declared name; any other name is refused)
  --token-env NAME       with --url, send "Authorization: Bearer" with the token
                         read from the environment variable NAME
  --env NAME[=VALUE]     pass a variable to the provider (repeatable); it gets
                         only PATH, HOME and these
  --connect-timeout MS   bound on starting the provider and its handshake (default ${CONNECT_TIMEOUT_MS})
  --timeout MS           bound on each query (default ${PROVIDER_QUERY_TIMEOUT_MS})
  -h, --help             print this help and exit
  -v, --version          print the version and exit

Exit status: 0 when the MCP client closes stdin; 2 on bad usage; 1 when the
provider cannot be started or reached, or a line on stdin is over
MAX_CLIENT_LINE_BYTES.
`;

const FAMILY_NAMES = { ocp: "ocp/1", contextgraph: "contextgraph/1" } as const;

/** `--family ocp|contextgraph|contextgraph,ocp`: distinct names, in the order to offer them. */
function parseFamilies(value: string | undefined): ProtocolFamily[] {
  if (value === undefined) return ["ocp/1"];
  const names = value.split(",").map((name) => name.trim());
  if (new Set(names).size !== names.length) {
    throw bridgeError("usage", `--family ${value}: a family is named twice`);
  }
  return names.map((name) => {
    if (name !== "ocp" && name !== "contextgraph") {
      throw bridgeError("usage", `--family: "${name}" is not ocp or contextgraph`);
    }
    return FAMILY_NAMES[name];
  });
}

async function main(): Promise<void> {
  const cli = parseCli<{ grant?: string; "token-env"?: string; family?: string }>(
    { grant: { type: "string" }, "token-env": { type: "string" }, family: { type: "string" } },
    TO_MCP_HELP,
  );
  if (cli === undefined) return;
  const { values, command, args } = cli;
  let token: string | undefined;
  if (values["token-env"] !== undefined) {
    token = process.env[values["token-env"]];
    if (token === undefined || token === "") {
      throw bridgeError("usage", `--token-env ${values["token-env"]}: not set in this environment`);
    }
  }
  const target: ProviderTarget =
    values.url !== undefined
      ? { kind: "http", url: values.url, ...(token === undefined ? {} : { token }) }
      : { kind: "stdio", command: command!, args, env: namedEnv(values.env) };
  const handle = new ProviderHandle({
    target,
    connectTimeoutMs: positiveInt("--connect-timeout", values["connect-timeout"]),
    queryTimeoutMs: positiveInt("--timeout", values.timeout),
    families: parseFamilies(values.family),
  });
  const provider = await handle.get();
  if (values.grant !== undefined && values.grant !== provider.info.name) {
    await handle.shutdown();
    throw bridgeError(
      "usage",
      `--grant "${values.grant}" does not name this provider (it is "${provider.info.name}")`,
    );
  }
  const log = (message: string) => process.stderr.write(`[ocp-to-mcp] ${message}\n`);
  const server = createOcpMcpServer({
    handle,
    provider,
    ...(values.grant === undefined ? {} : { grant: values.grant }),
    version: packageVersion(),
    log,
  });
  let closing = false;
  let status = 0;
  const close = () => {
    if (closing) return;
    closing = true;
    setTimeout(() => process.exit(status), SHUTDOWN_GRACE_MS * 2).unref();
    void handle
      .shutdown()
      .catch((error: unknown) => log(`provider shutdown failed: ${(error as Error).message}`))
      .finally(() => process.exit(status));
  };
  process.stdin.once("end", close);
  process.stdin.once("close", close);
  server.server.onclose = close;
  // Before the SDK's transport reads: the reason is set before it closes.
  watchLineLength(process.stdin, MAX_CLIENT_LINE_BYTES, () => {
    if (closing) return;
    status = 1;
    process.stderr.write(
      `ocp-to-mcp: a line on stdin is over MAX_CLIENT_LINE_BYTES (${MAX_CLIENT_LINE_BYTES} bytes); closing\n`,
    );
    close();
  });
  await server.connect(
    new StdioServerTransport(process.stdin, process.stdout, {
      maxBufferSize: MAX_CLIENT_LINE_BYTES,
    }),
  );
}

runCli("ocp-to-mcp", main);
