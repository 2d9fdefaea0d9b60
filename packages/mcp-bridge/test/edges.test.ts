import { join } from "node:path";
import { type StdioProvider, spawnStdioProvider } from "@ocp/transport-stdio";
import { isOcpError } from "@ocp/types";
import { afterEach, describe, expect, it } from "vitest";
import { connectMcpProvider, type McpProvider } from "../src/from-mcp.js";
import { MAX_MCP_LINE_BYTES } from "../src/limits.js";
import { fromMcpCli, root, run, SLOW } from "./helpers.js";

/** An MCP server written with the SDK: tools only, or resources with a huge one. */
const edgeServer = join(root, "test", "fixtures", "edge-server.mjs");

const open: Array<StdioProvider | McpProvider> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((provider) => provider.shutdown()));
});

const ask = (goal: string) => ({ goal, kinds: [], anchors: [], max_tokens: 4096, max_frames: 8 });

async function caught(promise: Promise<unknown>): Promise<Error & { code?: unknown }> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(isOcpError(error)).toBe(true);
  return error as Error & { code?: unknown };
}

describe("ocp-from-mcp at its edges", () => {
  it(
    "a tools-only MCP server fails the handshake with mcp_unsupported naming the missing resources capability and its tools",
    async () => {
      const failed = await run(
        process.execPath,
        [fromMcpCli, "--", process.execPath, edgeServer, "--tools-only"],
        { timeout: SLOW },
      ).catch((error) => error);
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain(
        "the MCP server edge-server declares no resources capability; ocp-from-mcp bridges resources",
      );
      expect(failed.stderr).toContain("--tool NAME; it has: echo");
      // An Open Context host never sees it as a healthy provider.
      await expect(
        spawnStdioProvider({
          id: "bridge",
          command: process.execPath,
          args: [fromMcpCli, "--", process.execPath, edgeServer, "--tools-only"],
          handshakeTimeoutMs: 30_000,
        }),
      ).rejects.toThrow(/declares no resources capability/);
    },
    SLOW,
  );

  it(
    "the library rejects a tools-only server with code mcp_unsupported, and serves its tool with --tool",
    async () => {
      const target = {
        kind: "stdio",
        command: process.execPath,
        args: [edgeServer, "--tools-only"],
      } as const;
      const error = await caught(connectMcpProvider({ target }));
      expect(error.code).toBe("mcp_unsupported");
      const provider = await connectMcpProvider({ target, tool: "echo" });
      open.push(provider);
      const result = await provider.query(ask("hello"));
      expect(result.frames[0]!.content).toBe("echo: hello");
    },
    SLOW,
  );

  it(
    "an MCP answer over the line limit gives mcp_too_large naming MAX_MCP_LINE_BYTES, and the next query reconnects",
    async () => {
      const provider = await connectMcpProvider({
        target: {
          kind: "stdio",
          command: process.execPath,
          args: [edgeServer, "--huge", "200000"],
          maxLineBytes: 64 * 1024,
        },
      });
      open.push(provider);
      const error = await caught(provider.query(ask("huge answer")));
      expect(error.code).toBe("mcp_too_large");
      expect(error.message).toMatch(
        /answered resources\/read huge:\/\/answer with a message over MAX_MCP_LINE_BYTES \(65536 bytes\)/,
      );
      const after = await provider.query(ask("small note budgets"));
      expect(after.frames[0]!.uri).toBe("note://small");
    },
    SLOW,
  );

  it(
    "CLI: an MCP answer over the default 16 MiB limit reaches the host as mcp_too_large, not mcp_crashed or mcp_timeout",
    async () => {
      const provider = await spawnStdioProvider({
        id: "bridge",
        command: process.execPath,
        args: [
          fromMcpCli,
          "--",
          process.execPath,
          edgeServer,
          "--huge",
          `${MAX_MCP_LINE_BYTES + 1}`,
        ],
        handshakeTimeoutMs: 30_000,
        queryTimeoutMs: 45_000,
      });
      open.push(provider);
      const error = await caught(provider.query(ask("huge answer")));
      expect(error.message).toMatch(/mcp_too_large: .*over MAX_MCP_LINE_BYTES \(16777216 bytes\)/);
      expect(error.message).not.toMatch(/mcp_crashed|mcp_timeout/);
    },
    SLOW,
  );
});
