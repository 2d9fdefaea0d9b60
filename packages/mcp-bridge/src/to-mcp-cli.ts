#!/usr/bin/env node
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
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

export const TO_MCP_HELP = `ocp-to-mcp — serve an Open Context (ocp/1.0-draft) provider as an MCP server

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

async function main(): Promise<void> {
  const cli = parseCli<{ grant?: string; "token-env"?: string }>(
    { grant: { type: "string" }, "token-env": { type: "string" } },
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
