import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { canonicalTokenCost } from "@ocp/types/cgp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { root, run, SLOW, toMcpCli } from "./helpers.js";

const graphProvider = fileURLToPath(new URL("./fixtures/graph-provider.mjs", import.meta.url));
const CONTENT = "The graph provider speaks contextgraph/1 and nothing older.";

let dir: string;
let log: string;
const clients: Client[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ocp-to-mcp-family-"));
  log = join(dir, "goals.log");
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(family: string): Promise<Client> {
  const client = new Client({ name: "test-client", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      toMcpCli,
      "--family",
      family,
      "--env",
      "OCP_FIXTURE_LOG",
      "--",
      process.execPath,
      graphProvider,
    ],
    env: { ...process.env, OCP_FIXTURE_LOG: log } as Record<string, string>,
    stderr: "pipe",
  });
  await client.connect(transport, { timeout: SLOW });
  clients.push(client);
  return client;
}

describe("ocp-to-mcp --family", () => {
  it.each(["contextgraph", "contextgraph,ocp"])(
    "--family %s: the MCP SDK Client queries a provider that speaks contextgraph/1 only, its B3 costs passed on",
    async (family) => {
      const client = await connect(family);
      const provider = await client.readResource({ uri: "ocp://provider" });
      const described = JSON.parse(String((provider.contents[0] as { text: string }).text));
      expect(described.name).toBe("graph-provider");
      const result = (await client.callTool(
        { name: "query_context", arguments: { goal: `graph goal ${family}` } },
        undefined,
        { timeout: SLOW },
      )) as CallToolResult;
      expect(result.isError).toBeFalsy();
      const text = result.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n");
      expect(text).toContain(CONTENT);
      expect(text).toContain('provider="graph-provider"');
      expect(text).toContain(`${canonicalTokenCost(CONTENT)} of `);
      expect(await readFile(log, "utf8")).toContain(`graph goal ${family}\n`);
    },
    SLOW,
  );

  it(
    "without --family the bridge offers ocp/1, the contextgraph-only provider refuses it by name, and the bridge exits 1",
    async () => {
      const failed = await run(
        process.execPath,
        [toMcpCli, "--", process.execPath, graphProvider],
        {
          cwd: root,
          timeout: SLOW,
        },
      ).catch((error: { code?: number; stderr?: string }) => error);
      expect((failed as { code?: number }).code).toBe(1);
      expect((failed as { stderr: string }).stderr).toMatch(/contextgraph|version/i);
    },
    SLOW,
  );

  it(
    "an unknown or repeated family is a usage error (exit 2), before any provider is started",
    async () => {
      for (const family of ["mcp", "ocp,ocp", ""]) {
        const failed = await run(
          process.execPath,
          [toMcpCli, "--family", family, "--", process.execPath, graphProvider],
          {
            cwd: root,
            timeout: SLOW,
            env: { ...process.env, OCP_FIXTURE_LOG: join(dir, "never.log") },
          },
        ).catch((error: { code?: number }) => error);
        expect((failed as { code?: number }).code).toBe(2);
      }
      await expect(readFile(join(dir, "never.log"), "utf8")).rejects.toThrow();
    },
    SLOW,
  );
});
