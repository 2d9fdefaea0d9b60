import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type CallToolResult, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MAX_CLIENT_LINE_BYTES } from "../src/limits.js";
import { demoProviderCli, run, SLOW, toMcpCli, trickyProvider } from "./helpers.js";

const clients: Client[] = [];
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ocp-to-mcp-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

interface Connect {
  readonly bridge?: string[];
  readonly provider: string[];
  readonly elicit?: (message: string) => { action: "accept" | "decline"; allow?: boolean };
}

/** The MCP SDK's own Client, over stdio, to ocp-to-mcp wrapping `provider`. */
async function connect({ bridge = [], provider, elicit }: Connect): Promise<Client> {
  const client = new Client(
    { name: "test-client", version: "1.0.0" },
    { capabilities: elicit === undefined ? {} : { elicitation: { form: {} } } },
  );
  if (elicit !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const answer = elicit(request.params.message);
      return answer.action === "accept"
        ? { action: "accept", content: { allow: answer.allow ?? true } }
        : { action: answer.action };
    });
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [toMcpCli, ...bridge, "--", process.execPath, ...provider],
    stderr: "pipe",
  });
  await client.connect(transport, { timeout: SLOW });
  clients.push(client);
  return client;
}

const query = (client: Client, goal: string, extra: Record<string, unknown> = {}) =>
  client.callTool({ name: "query_context", arguments: { goal, ...extra } }, undefined, {
    timeout: SLOW,
  }) as Promise<CallToolResult>;

const texts = (result: CallToolResult) =>
  result.content.flatMap((item) => (item.type === "text" ? [item.text] : [])).join("\n");

describe("ocp-to-mcp", () => {
  it(
    "the MCP SDK Client lists the tools and resources of ocp-to-mcp wrapping the demo provider and gets cited frames",
    async () => {
      const client = await connect({ provider: [demoProviderCli, "--quiet"] });
      const tools = await client.listTools();
      expect(tools.tools.map((tool) => tool.name)).toEqual(["query_context"]);
      expect(Object.keys(tools.tools[0]!.inputSchema.properties ?? {})).toEqual(
        expect.arrayContaining(["goal", "max_tokens", "kinds", "max_frames"]),
      );
      const before = await client.listResources();
      expect(before.resources.map((resource) => resource.uri)).toContain("ocp://provider");

      const result = await query(client, "how are versions compatible?", { max_tokens: 3000 });
      expect(result.isError).toBeFalsy();
      const text = texts(result);
      expect(text).toMatch(/<<<frame 1 cite="[^"]+ L\d+-\d+" provider="ocp-demo-provider"/);
      expect(text).toContain("Sources:\n[1] ");
      const links = result.content.filter((item) => item.type === "resource_link");
      expect(links.length).toBeGreaterThan(0);

      const after = await client.listResources();
      const frameUris = after.resources.map((r) => r.uri).filter((u) => u.startsWith("ocp-frame:"));
      expect(frameUris).toContain((links[0] as { uri: string }).uri);
      const read = await client.readResource({ uri: frameUris[0]! });
      expect((read.contents[0] as { text: string }).text.length).toBeGreaterThan(0);
    },
    SLOW,
  );

  it(
    "C1, C2: an egress provider is never queried without consent: consent_required when the client cannot ask",
    async () => {
      const log = join(dir, "no-consent.log");
      const client = await connect({
        provider: [trickyProvider, "--egress"],
        bridge: ["--env", `OCP_FIXTURE_LOG=${log}`],
      });
      const result = await query(client, "what is tricky?");
      expect(result.isError).toBe(true);
      expect(texts(result)).toContain('consent_required: provider "tricky-provider" is egress');
      expect(await readFile(log, "utf8").catch(() => "")).toBe("");
    },
    SLOW,
  );

  it(
    "C1, C2: consent is asked through MCP elicitation; declined means consent_declined and no query, accepted means frames",
    async () => {
      const log = join(dir, "elicit.log");
      let answer: "accept" | "decline" = "decline";
      const asked: string[] = [];
      const client = await connect({
        provider: [trickyProvider, "--egress"],
        bridge: ["--env", `OCP_FIXTURE_LOG=${log}`],
        elicit: (message) => {
          asked.push(message);
          return { action: answer };
        },
      });
      const declined = await query(client, "first goal");
      expect(declined.isError).toBe(true);
      expect(texts(declined)).toContain("consent_declined");
      expect(asked[0]).toContain('"tricky-provider" 1.0.0 sends data off this machine');
      expect(await readFile(log, "utf8").catch(() => "")).toBe("");
      answer = "accept";
      const accepted = await query(client, "second goal");
      expect(accepted.isError).toBeFalsy();
      expect(texts(accepted)).toContain('cite="tricky.md"');
      expect(await readFile(log, "utf8")).toBe("second goal\n");
    },
    SLOW,
  );

  it(
    "C1: --grant must name the provider; with its name, goals are sent",
    async () => {
      const wrong = await run(
        process.execPath,
        [toMcpCli, "--grant", "someone-else", "--", process.execPath, trickyProvider, "--egress"],
        { timeout: SLOW },
      ).catch((error) => error);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain('does not name this provider (it is "tricky-provider")');
      const client = await connect({
        provider: [trickyProvider, "--egress"],
        bridge: ["--grant", "tricky-provider"],
      });
      expect((await query(client, "granted")).isError).toBeFalsy();
    },
    SLOW,
  );

  it(
    "B2, T1: a provider that lies about costs gives provider_dishonest, and the bridge keeps serving",
    async () => {
      const client = await connect({ provider: [trickyProvider] });
      const lie = await query(client, "lie");
      expect(lie.isError).toBe(true);
      expect(texts(lie)).toMatch(/provider_dishonest: .*\(T1\).*declares token_cost 1 but/);
      expect((await query(client, "honest")).isError).toBeFalsy();
    },
    SLOW,
  );

  it(
    "a provider that crashes gives provider_failed, and the next call starts it again",
    async () => {
      const client = await connect({ provider: [trickyProvider] });
      const crash = await query(client, "crash");
      expect(crash.isError).toBe(true);
      expect(texts(crash)).toContain("provider_failed (provider_crashed)");
      expect((await query(client, "after the crash")).isError).toBeFalsy();
    },
    SLOW,
  );

  it(
    "a provider that does not answer gives provider_failed (timeout), and the bridge keeps serving",
    async () => {
      const client = await connect({ provider: [trickyProvider], bridge: ["--timeout", "1500"] });
      const hang = await query(client, "hang");
      expect(hang.isError).toBe(true);
      expect(texts(hang)).toContain("provider_failed (timeout)");
      expect((await query(client, "after the hang")).isError).toBeFalsy();
    },
    SLOW,
  );

  it(
    "bad tool arguments are a clear tool error",
    async () => {
      const client = await connect({ provider: [trickyProvider] });
      const bad = await query(client, "", { max_tokens: -5 });
      expect(bad.isError).toBe(true);
      expect(texts(bad)).toMatch(/goal|max_tokens/);
    },
    SLOW,
  );

  it(
    "CLI: --help, --version, exit 2 on bad usage, exit 1 when the provider cannot start",
    async () => {
      const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
      for (const flag of ["--help", "-h"]) {
        const help = await run(process.execPath, [toMcpCli, flag], { timeout: SLOW });
        expect(help.stdout).toContain("Usage:\n  ocp-to-mcp [options] -- COMMAND");
      }
      for (const flag of ["--version", "-v"]) {
        const version = await run(process.execPath, [toMcpCli, flag], { timeout: SLOW });
        expect(version.stdout).toBe(`${(pkg as { version: string }).version}\n`);
      }
      const usage = await run(process.execPath, [toMcpCli, "--timeout", "0", "--", "x"], {
        timeout: SLOW,
      }).catch((e) => e);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain("--timeout takes a positive integer");
      // Both targets at once, and an option only the other bridge takes: usage errors too.
      for (const [argv, says] of [
        [["--url", "http://127.0.0.1:9", "--", "x"], "give either -- COMMAND"],
        [["--tool", "search", "--", "x"], "Unknown option '--tool'"],
      ] as const) {
        const bad = await run(process.execPath, [toMcpCli, ...argv], { timeout: SLOW }).catch(
          (e) => e,
        );
        expect(bad.code).toBe(2);
        // One line naming the problem and a hint, not the usage text.
        const lines = bad.stderr.split("\n");
        expect(lines).toHaveLength(3);
        expect(lines[0]).toMatch(/^ocp-to-mcp: /);
        expect(lines[0]).toContain(says);
        expect(lines[1]).toBe('run "ocp-to-mcp --help" for usage');
      }
      const missing = await run(process.execPath, [toMcpCli, "--", "no-such-provider-cmd"], {
        timeout: SLOW,
      }).catch((e) => e);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain(
        "cannot connect to Open Context provider no-such-provider-cmd",
      );
    },
    SLOW,
  );

  it(
    "a line on stdin over MAX_CLIENT_LINE_BYTES ends ocp-to-mcp with exit status 1 and one stderr line naming the limit",
    async () => {
      const child = spawn(process.execPath, [toMcpCli, "--", process.execPath, trickyProvider], {
        stdio: ["pipe", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
      });
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
      });
      child.stdin.on("error", () => {});
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      const initialize = {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "test-client", version: "1.0.0" },
        },
      };
      child.stdin.write(`${JSON.stringify(initialize)}\n`);
      // It serves normally until the long line: the initialize answer comes first.
      await expect.poll(() => stdout, { timeout: SLOW }).toContain('"id":1');
      child.stdin.write(Buffer.alloc(MAX_CLIENT_LINE_BYTES + 1, "x"));
      expect(await exited).toBe(1);
      expect(stderr.trim().split("\n")).toEqual([
        `ocp-to-mcp: a line on stdin is over MAX_CLIENT_LINE_BYTES (${MAX_CLIENT_LINE_BYTES} bytes); closing`,
      ]);
    },
    SLOW,
  );
});
