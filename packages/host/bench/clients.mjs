// The raw and MCP clients of the transport benches.
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

export { expectFrames } from "../../transport-stdio/bench/frames.mjs";
export { rawStdio } from "../../transport-stdio/bench/raw-client.mjs";

export const child = (name) => fileURLToPath(new URL(`children/${name}`, import.meta.url));
/** The children shared with the transport bench (same bytes on both sides): raw and serveStdio providers. */
export const sharedChild = (name) =>
  fileURLToPath(new URL(`../../transport-stdio/bench/children/${name}`, import.meta.url));

/** The MCP TypeScript SDK: Client + StdioClientTransport calling the bench tool. */
export async function mcpStdio(size) {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [child("mcp-server.mjs"), size],
      stderr: "inherit",
    }),
  );
  const call = async (query) => {
    const reply = await client.callTool({
      name: "query",
      arguments: { goal: query.goal, max_tokens: query.max_tokens },
    });
    return JSON.parse(reply.content[0].text);
  };
  return { call, close: () => client.close() };
}
