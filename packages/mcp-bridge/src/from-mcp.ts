import type { CallToolResult, Resource, Tool } from "@modelcontextprotocol/sdk/types.js";
import {
  type Capabilities,
  type ContextProvider,
  type ContextQuery,
  type ContextQueryResult,
  PROTOCOL_VERSION,
  type ProviderInfo,
  positiveLimit,
  type QueryOptions,
} from "@ocp/types";
import { bridgeError } from "./errors.js";
import { BudgetPacker, makeFrame } from "./frames.js";
import {
  CONNECT_TIMEOUT_MS,
  MAX_FRAME_CHARS,
  MAX_INDEXED_READS,
  MAX_INDEXED_RESOURCE_BYTES,
  MAX_RESOURCES,
  MCP_REQUEST_TIMEOUT_MS,
} from "./limits.js";
import {
  describeTarget,
  type McpConnection,
  McpSession,
  type McpTarget,
  targetIsRemote,
} from "./mcp-session.js";
import { type RankedDocument, ResourceRanker } from "./ranker.js";
import { toolFrames } from "./tool-frames.js";

export interface McpProviderOptions {
  /** Host-chosen id of the provider. Default `mcp`. */
  readonly id?: string;
  readonly target: McpTarget;
  /**
   * Serve this tool instead of resources: the goal is passed as its string
   * argument `toolArgument` (default: the tool's first required string
   * property) and each content item of its result becomes a frame.
   */
  readonly tool?: string;
  readonly toolArgument?: string;
  /**
   * Declare `egress: true` (C3): the MCP server sends data off this machine.
   * A target off loopback (HTTP) is egress whatever this says.
   */
  readonly egress?: boolean;
  readonly connectTimeoutMs?: number;
  readonly requestTimeoutMs?: number;
}

interface IndexedResource extends RankedDocument {
  readonly resource: Resource;
}

/**
 * Connects to an MCP server and serves it as an Open Context provider (see
 * {@link McpProvider}). Fails with `connect_failed` when the server cannot be
 * started or reached, or `tool_error` when the named tool does not exist.
 */
export async function connectMcpProvider(options: McpProviderOptions): Promise<McpProvider> {
  const session = new McpSession(
    options.target,
    positiveLimit("connectTimeoutMs", options.connectTimeoutMs, CONNECT_TIMEOUT_MS),
  );
  const connection = await session.get();
  try {
    await requireCapability(connection, options.tool === undefined ? "resources" : "tools");
  } catch (error) {
    await session.close();
    throw error;
  }
  const provider = new McpProvider(options, session, connection);
  if (options.tool !== undefined) {
    try {
      await provider.resolveTool(connection);
    } catch (error) {
      await session.close();
      throw error;
    }
  }
  return provider;
}

/**
 * Fails with `mcp_unsupported` when the server did not declare, at
 * `initialize`, the capability the bridge uses: `resources` (the default
 * mode) or `tools` (with a tool named). A tools-only server would otherwise
 * handshake as healthy and then fail every query with `-32601`.
 */
async function requireCapability(
  connection: McpConnection,
  needed: "resources" | "tools",
): Promise<void> {
  const declared = connection.client.getServerCapabilities() ?? {};
  if (declared[needed] !== undefined) return;
  const name = connection.server.name;
  let hint = "";
  if (needed === "resources" && declared.tools !== undefined) {
    // Best effort: name its tools so the user can pick one for --tool.
    const listed = await connection.client
      .listTools(undefined, { timeout: CONNECT_TIMEOUT_MS })
      .catch(() => undefined);
    const tools = listed?.tools.map((tool) => tool.name) ?? [];
    hint = ` (serve one of its tools with --tool NAME${tools.length > 0 ? `; it has: ${tools.slice(0, 20).join(", ")}` : ""})`;
  }
  const what =
    needed === "resources"
      ? "ocp-from-mcp bridges resources"
      : "ocp-from-mcp --tool needs the tools capability";
  throw bridgeError(
    "mcp_unsupported",
    `the MCP server ${name} declares no ${needed} capability; ${what}${hint}`,
    { details: { server: name, capability: needed } },
  );
}

/**
 * An MCP server as a {@link ContextProvider}. Resources mode: the goal ranks
 * the server's resources (BM25 over name, title, description, URI and, when
 * cheap, contents) and the best are read into `doc` frames until the budget
 * or `max_frames` is reached. Tool mode: the goal goes to one tool. Each
 * frame carries the resource URI, an honest o200k_base `token_cost`, the
 * resource name as its citation label, and provenance naming the server and
 * the resource or tool. A crash, timeout or malformed answer of the server
 * fails that query with a typed error; the next query reconnects.
 */
export class McpProvider implements ContextProvider {
  readonly id: string;
  readonly info: ProviderInfo;
  readonly capabilities: Capabilities;
  readonly protocolVersion = PROTOCOL_VERSION;
  readonly #session: McpSession;
  readonly #options: McpProviderOptions;
  readonly #timeout: number;
  readonly #by: string;
  #index: Promise<ResourceRanker<IndexedResource>> | undefined;
  #tool: { readonly name: string; readonly argument: string } | undefined;

  constructor(options: McpProviderOptions, session: McpSession, connection: McpConnection) {
    this.id = options.id ?? "mcp";
    this.#options = options;
    this.#session = session;
    this.#timeout = positiveLimit(
      "requestTimeoutMs",
      options.requestTimeoutMs,
      MCP_REQUEST_TIMEOUT_MS,
    );
    const server = connection.server;
    this.#by = `${server.name} ${server.version} (MCP, ${describeTarget(options.target)})`;
    this.info = {
      name: `ocp-from-mcp/${server.name || "mcp-server"}`,
      version: server.version || "unknown",
      data_flow: {
        reads: true,
        writes: false,
        egress: options.egress === true || targetIsRemote(options.target),
      },
    };
    this.capabilities = {
      query: { kinds: ["doc"], filters: [] },
      upsert: false,
      graph: false,
      subscribe: false,
      correlation: true,
    };
    session.onInvalidate = () => {
      this.#index = undefined;
    };
  }

  /** Finds the tool and the argument the goal goes into. */
  async resolveTool(connection: McpConnection): Promise<void> {
    const name = this.#options.tool!;
    const listed = await connection.client
      .listTools(undefined, { timeout: this.#timeout })
      .catch((error: unknown) => {
        throw this.#session.classify(error, "tools/list", connection);
      });
    const tool = listed.tools.find((candidate: Tool) => candidate.name === name);
    if (tool === undefined) {
      throw bridgeError(
        "tool_error",
        `MCP server has no tool "${name}" (it has: ${listed.tools.map((t) => t.name).join(", ") || "none"})`,
        { details: { tool: name } },
      );
    }
    const properties = (tool.inputSchema.properties ?? {}) as Record<string, { type?: unknown }>;
    const required = tool.inputSchema.required ?? [];
    const argument =
      this.#options.toolArgument ??
      required.find((key) => properties[key]?.type === "string") ??
      Object.keys(properties).find((key) => properties[key]?.type === "string");
    if (argument === undefined) {
      throw bridgeError("tool_error", `tool "${name}" takes no string argument for the goal`, {
        details: {
          tool: name,
        },
      });
    }
    this.#tool = { name, argument };
  }

  async query(query: ContextQuery, options: QueryOptions = {}): Promise<ContextQueryResult> {
    if (query.kinds.length > 0 && !query.kinds.includes("doc")) {
      return { frames: [], truncated: false };
    }
    if (query.max_frames === 0 || query.max_tokens === 0) return { frames: [], truncated: false };
    const connection = await this.#session.get();
    const request = { timeout: this.#timeout, signal: options.signal };
    if (this.#tool !== undefined) {
      const { name, argument } = this.#tool;
      const result = await connection.client
        .callTool({ name, arguments: { [argument]: query.goal } }, undefined, request)
        .catch((error: unknown) => {
          throw this.#session.classify(error, `tools/call ${name}`, connection);
        });
      if (!("content" in result) || !Array.isArray(result.content)) {
        throw bridgeError("mcp_malformed", `tool "${name}" answered without a content array`, {
          details: {
            tool: name,
          },
        });
      }
      return toolFrames(result as CallToolResult, query, { tool: name, by: this.#by });
    }
    this.#index ??= this.#buildIndex(connection);
    const index = await this.#index.catch((error: unknown) => {
      this.#index = undefined;
      throw error;
    });
    const ranked = index.rank(query.goal);
    const packer = new BudgetPacker(query.max_tokens, query.max_frames);
    let at = 0;
    for (; at < ranked.length && !packer.full; at += 1) {
      const { doc, score } = ranked[at]!;
      const uri = doc.resource.uri;
      const read = await connection.client
        .readResource({ uri }, request)
        .catch((error: unknown) => {
          throw this.#session.classify(error, `resources/read ${uri}`, connection);
        });
      const text = read.contents
        .map((item) => ("text" in item && typeof item.text === "string" ? item.text : ""))
        .filter((part) => part !== "")
        .join("\n\n");
      if (text === "" || text.length > MAX_FRAME_CHARS) {
        packer.dropped += 1;
        continue;
      }
      const label = doc.name.trim() !== "" ? doc.name : uri;
      packer.offer(
        makeFrame({
          kind: "doc",
          title: doc.title ?? doc.name,
          content: text,
          uri,
          score,
          citationLabel: label,
          provenance: { type: "mcp_resource", uri, method: "resources/read", by: this.#by },
        }),
      );
    }
    return packer.result(ranked.length - at);
  }

  /** Lists the server's resources (bounded) and reads the cheap ones into the ranking index. */
  async #buildIndex(connection: McpConnection): Promise<ResourceRanker<IndexedResource>> {
    const resources: Resource[] = [];
    let cursor: string | undefined;
    do {
      const page = await connection.client
        .listResources(cursor === undefined ? undefined : { cursor }, { timeout: this.#timeout })
        .catch((error: unknown) => {
          throw this.#session.classify(error, "resources/list", connection);
        });
      resources.push(...page.resources);
      cursor = page.nextCursor;
    } while (cursor !== undefined && resources.length < MAX_RESOURCES);
    const docs: IndexedResource[] = [];
    let reads = 0;
    for (const resource of resources.slice(0, MAX_RESOURCES)) {
      let text: string | undefined;
      const cheap =
        typeof resource.size === "number" &&
        resource.size <= MAX_INDEXED_RESOURCE_BYTES &&
        (resource.mimeType === undefined || /^text\/|json|xml|yaml/.test(resource.mimeType));
      if (cheap && reads < MAX_INDEXED_READS) {
        reads += 1;
        // Ranking only: a failed read leaves the resource ranked by its metadata.
        const read = await connection.client
          .readResource({ uri: resource.uri }, { timeout: this.#timeout })
          .catch(() => undefined);
        text = read?.contents
          .map((item) => ("text" in item && typeof item.text === "string" ? item.text : ""))
          .join("\n");
      }
      docs.push({
        resource,
        uri: resource.uri,
        name: resource.name,
        title: resource.title,
        description: resource.description,
        text,
      });
    }
    return new ResourceRanker(docs);
  }

  async shutdown(): Promise<void> {
    await this.#session.close();
  }
}
