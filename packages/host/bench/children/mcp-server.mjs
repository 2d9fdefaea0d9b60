// The MCP TypeScript SDK doing the same work: one tool whose result carries
// the bench frames (as structured content and as JSON text), over stdio.
// Usage: node mcp-server.mjs small|large
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { benchResult } from "../../../transport-stdio/bench/frames.mjs";

const result = benchResult(process.argv[2] ?? "small");
const server = new McpServer({ name: "bench", version: "1.0.0" });
server.registerTool(
  "query",
  { description: "bench frames", inputSchema: { goal: z.string(), max_tokens: z.number() } },
  async () => ({ content: [{ type: "text", text: JSON.stringify(result) }] }),
);
await server.connect(new StdioServerTransport());
