import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { StdioProvider } from "@ocp/transport-stdio";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  demoProviderCli,
  inspectBridge,
  type Listening,
  listen,
  notesServer,
  SLOW,
  spawnBridge,
  toMcpCli,
} from "./helpers.js";

// Both bridges over HTTP, each against a real server on a loopback socket in
// a child process: the notes MCP server over the SDK's streamable HTTP
// transport, and the demo Open Context provider's HTTP mode behind a token.

const TOKEN_ENV = "OCP_BRIDGE_TEST_TOKEN";
const TOKEN = "bridge-http-test-token";

let notes: Listening;
let demo: Listening;
beforeAll(async () => {
  [notes, demo] = await Promise.all([
    listen([notesServer, "--http", "0"]),
    listen([demoProviderCli, "--http", "0", "--token-env", TOKEN_ENV], {
      ...process.env,
      [TOKEN_ENV]: TOKEN,
    }),
  ]);
}, SLOW);
afterAll(async () => {
  await Promise.all([notes?.stop(), demo?.stop()]);
});

const providers: StdioProvider[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all([
    ...providers.splice(0).map((provider) => provider.shutdown()),
    ...clients.splice(0).map((client) => client.close()),
  ]);
});

const ask = (goal: string) => ({ goal, kinds: [], anchors: [], max_tokens: 4096, max_frames: 8 });

describe("ocp-from-mcp --url (streamable HTTP)", () => {
  it(
    "ocp-inspect --strict passes an MCP server reached over streamable HTTP",
    async () => {
      const stdout = await inspectBridge(["--url", notes.url]);
      expect(stdout).toContain("CONFORMANT");
      expect(stdout).toContain("ocp-from-mcp/notes-server");
    },
    SLOW,
  );

  it(
    "serves the HTTP server's resources and tool results as cited frames",
    async () => {
      const bridge = (...flags: string[]) => spawnBridge(["--url", notes.url, ...flags], providers);
      const resources = await bridge();
      expect(resources.info.name).toBe("ocp-from-mcp/notes-server");
      const first = (await resources.query(ask("consent for egress"))).frames[0]!;
      expect(first).toMatchObject({ uri: "note://consent", citation_label: "consent" });
      expect(first.provenance[0]).toMatchObject({
        type: "mcp_resource",
        uri: "note://consent",
        method: "resources/read",
      });

      const tool = await bridge("--tool", "search_notes");
      const result = await tool.query(ask("citations"));
      expect(result.frames).toHaveLength(1);
      expect(result.frames[0]).toMatchObject({ uri: "note://citations" });
      expect(result.frames[0]!.provenance[0]).toMatchObject({
        type: "mcp_tool",
        method: "tools/call search_notes",
      });
    },
    SLOW,
  );
});

describe("ocp-to-mcp --url (an Open Context provider over HTTP)", () => {
  /** The MCP SDK's own Client, over stdio, to ocp-to-mcp reaching the demo provider over HTTP. */
  async function connect(...flags: string[]): Promise<Client> {
    const client = new Client({ name: "test-client", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [toMcpCli, "--url", demo.url, "--token-env", TOKEN_ENV, ...flags],
      env: { ...getDefaultEnvironment(), [TOKEN_ENV]: TOKEN },
      stderr: "pipe",
    });
    await client.connect(transport, { timeout: SLOW });
    clients.push(client);
    return client;
  }
  const query = (client: Client, goal: string) =>
    client.callTool({ name: "query_context", arguments: { goal, max_tokens: 3000 } }, undefined, {
      timeout: SLOW,
    }) as Promise<CallToolResult>;
  const texts = (result: CallToolResult) =>
    result.content.flatMap((item) => (item.type === "text" ? [item.text] : [])).join("\n");

  it(
    "with --grant, the MCP SDK Client gets cited frames from the HTTP provider",
    async () => {
      const client = await connect("--grant", "ocp-demo-provider");
      const tools = await client.listTools();
      expect(tools.tools.map((tool) => tool.name)).toEqual(["query_context"]);
      const result = await query(client, "how are versions compatible?");
      expect(result.isError).toBeFalsy();
      const text = texts(result);
      expect(text).toMatch(/<<<frame 1 cite="[^"]+ L\d+-\d+" provider="ocp-demo-provider"/);
      expect(text).toContain("Sources:\n[1] ");
      expect(result.content.some((item) => item.type === "resource_link")).toBe(true);
    },
    SLOW,
  );

  it(
    "an HTTP provider is egress: without --grant or elicitation, query_context answers consent_required",
    async () => {
      const client = await connect();
      const result = await query(client, "how are versions compatible?");
      expect(result.isError).toBe(true);
      expect(texts(result)).toContain('consent_required: provider "ocp-demo-provider" is egress');
    },
    SLOW,
  );
});
