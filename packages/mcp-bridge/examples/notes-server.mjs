#!/usr/bin/env node
// A small, real MCP server written with the official SDK: a few notes as
// resources, and a `search_notes` tool. With --traps it also serves three
// resources that misbehave on purpose (the bridge's tests read them):
// trap://crash exits the process, trap://hang never answers, and
// trap://malformed answers contents that fail the MCP schema.
//
// Speaks MCP on stdin/stdout by default. With --http PORT it serves the same
// notes over the SDK's streamable HTTP transport at http://127.0.0.1:PORT/mcp
// instead (stateless: a fresh server per request; PORT 0 picks a free port)
// and prints "listening on URL" on stderr.
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

const NOTES = [
  {
    slug: "consent",
    title: "Consent for egress providers",
    text: "A host never sends a query to an egress provider before the user has granted consent. Consent names what leaves the machine and can be revoked.",
  },
  {
    slug: "budgets",
    title: "Token budgets",
    text: "Every query carries max_tokens. A provider never returns frames whose declared token costs add up to more than the budget, and never understates a cost.",
  },
  {
    slug: "citations",
    title: "Citations",
    text: "Each frame has a citation label, so an answer can cite where a fact came from: a file and line range, a resource, a tool.",
  },
];

function notesServer() {
  const server = new McpServer({ name: "notes-server", version: "1.0.0" });

  for (const note of NOTES) {
    server.registerResource(
      note.slug,
      `note://${note.slug}`,
      {
        title: note.title,
        description: `A note about ${note.title.toLowerCase()}`,
        mimeType: "text/plain",
        size: Buffer.byteLength(note.text),
      },
      async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: note.text }] }),
    );
  }

  server.registerTool(
    "search_notes",
    {
      description: "Finds the notes whose title or text mention any word of the query",
      inputSchema: { query: z.string() },
    },
    async ({ query }) => {
      const words = query.toLowerCase().split(/\W+/).filter(Boolean);
      const hits = NOTES.filter((note) =>
        words.some((word) => `${note.title} ${note.text}`.toLowerCase().includes(word)),
      );
      return {
        content: hits.map((note) => ({
          type: "resource",
          resource: { uri: `note://${note.slug}`, mimeType: "text/plain", text: note.text },
        })),
      };
    },
  );

  if (process.argv.includes("--traps")) {
    const trap = (name, description, read) =>
      server.registerResource(name, `trap://${name}`, { description }, read);
    trap("crash", "a resource whose read crashes the server", async () => process.exit(3));
    trap("hang", "a resource whose read never answers", () => new Promise(() => {}));
    trap("malformed", "a resource whose read answers malformed contents", async () => ({
      contents: [{ uri: 42, text: { not: "a string" } }],
    }));
  }

  return server;
}

const httpAt = process.argv.indexOf("--http");
if (httpAt === -1) {
  await notesServer().connect(new StdioServerTransport());
} else {
  const port = Number(process.argv[httpAt + 1] ?? "0");
  const http = createServer(async (req, res) => {
    if (new URL(req.url ?? "/", "http://localhost").pathname !== "/mcp") {
      res.writeHead(404).end();
      return;
    }
    const server = notesServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res);
    } catch (error) {
      process.stderr.write(`notes-server: ${error?.message ?? error}\n`);
      if (!res.headersSent) res.writeHead(500).end();
    }
  });
  http.listen(port, "127.0.0.1", () => {
    process.stderr.write(
      `notes-server: listening on http://127.0.0.1:${http.address().port}/mcp\n`,
    );
  });
  process.on("SIGTERM", () => http.close(() => process.exit(0)));
}
