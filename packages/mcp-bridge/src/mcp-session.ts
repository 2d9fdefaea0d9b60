import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ErrorCode,
  type Implementation,
  McpError,
  ResourceListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { isLoopbackHost } from "@ocp/transport-http/client";
import { isOcpError } from "@ocp/types";
import { type BridgeError, bridgeError } from "./errors.js";
import { CONNECT_TIMEOUT_MS } from "./limits.js";
import { type McpStdioOptions, McpStdioTransport } from "./mcp-stdio.js";
import { stderrNote } from "./stderr-summary.js";

/** Where the MCP server is: a command to spawn, or a streamable HTTP endpoint. */
export type McpTarget =
  | ({ readonly kind: "stdio" } & McpStdioOptions)
  | { readonly kind: "http"; readonly url: string; readonly headers?: Record<string, string> };

/** How the target is named in messages and provenance (no credentials, no arguments). */
export function describeTarget(target: McpTarget): string {
  if (target.kind === "stdio") return target.command;
  const url = new URL(target.url);
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** Whether the target sends anything off this machine by itself: an HTTP URL off loopback. */
export function targetIsRemote(target: McpTarget): boolean {
  return target.kind === "http" && !isLoopbackHost(new URL(target.url).hostname);
}

/** A connected MCP client and what the server told us at `initialize`. */
export interface McpConnection {
  readonly client: Client;
  readonly server: Implementation;
  /** The server's stderr so far (stdio only). */
  stderr(): string;
  /** The line limit the server broke (the connection was closed for it), if it did (stdio only). */
  overflow(): number | undefined;
}

/**
 * One MCP client that reconnects on demand: after the server crashed or the
 * connection closed, the next {@link get} starts (or reaches) it again, so a
 * bridge keeps serving across a crash of what it wraps.
 */
export class McpSession {
  readonly target: McpTarget;
  readonly #connectTimeoutMs: number;
  #current: Promise<McpConnection> | undefined;
  #generation = 0;
  /** Called when the server says its resource list changed (or on reconnect). */
  onInvalidate: () => void = () => {};

  constructor(target: McpTarget, connectTimeoutMs = CONNECT_TIMEOUT_MS) {
    this.target = target;
    this.#connectTimeoutMs = connectTimeoutMs;
  }

  get(): Promise<McpConnection> {
    this.#current ??= this.#connect();
    return this.#current;
  }

  async #connect(): Promise<McpConnection> {
    const name = describeTarget(this.target);
    const transport =
      this.target.kind === "stdio"
        ? new McpStdioTransport(this.target)
        : new StreamableHTTPClientTransport(new URL(this.target.url), {
            requestInit: { headers: this.target.headers ?? {} },
          });
    const generation = ++this.#generation;
    const client = new Client({ name: "ocp-from-mcp", version: "0" }, { capabilities: {} });
    // A closed connection (the server crashed or hung up) is reopened by the next call.
    client.onclose = () => {
      if (this.#generation === generation) this.#current = undefined;
    };
    client.onerror = () => {};
    this.onInvalidate();
    try {
      await client.connect(transport, { timeout: this.#connectTimeoutMs });
    } catch (cause) {
      this.#current = undefined;
      await transport.close().catch(() => {});
      const stderr = transport instanceof McpStdioTransport ? transport.stderr() : "";
      throw bridgeError(
        "connect_failed",
        `cannot connect to MCP server ${name}: ${(cause as Error).message}${stderrNote(stderr)}`,
        { details: { target: name }, cause },
      );
    }
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => this.onInvalidate());
    const server = client.getServerVersion() ?? { name, version: "unknown" };
    return {
      client,
      server,
      stderr: () => (transport instanceof McpStdioTransport ? transport.stderr() : ""),
      overflow: () => (transport instanceof McpStdioTransport ? transport.overflow() : undefined),
    };
  }

  /** Closes the connection (and kills a stdio server's process group). */
  async close(): Promise<void> {
    const current = this.#current;
    this.#current = undefined;
    if (current === undefined) return;
    const connection = await current.catch(() => undefined);
    await connection?.client.close().catch(() => {});
  }

  /**
   * The bridge error for a failed MCP request on `connection`:
   * `mcp_too_large` when the server wrote a line over the limit (the
   * connection was closed for it), `mcp_timeout`, `mcp_crashed` (and the
   * next call reconnects), `mcp_malformed` for a result that fails the MCP
   * schema, `mcp_error` for a JSON-RPC error.
   */
  classify(error: unknown, what: string, connection?: McpConnection): BridgeError {
    if (isOcpError(error)) return error as BridgeError;
    const name = describeTarget(this.target);
    const overflow = connection?.overflow();
    if (overflow !== undefined) {
      this.#current = undefined;
      return bridgeError(
        "mcp_too_large",
        `MCP server ${name} answered ${what} with a message over MAX_MCP_LINE_BYTES (${overflow} bytes); the connection was closed`,
        { details: { target: name, limit: "MAX_MCP_LINE_BYTES", bytes: overflow }, cause: error },
      );
    }
    const tail = stderrNote(connection?.stderr() ?? "");
    if (error instanceof McpError) {
      if (error.code === ErrorCode.RequestTimeout) {
        return bridgeError("mcp_timeout", `MCP server ${name} did not answer ${what} in time`, {
          details: {
            target: name,
          },
        });
      }
      if (error.code === ErrorCode.ConnectionClosed) {
        this.#current = undefined;
        return bridgeError(
          "mcp_crashed",
          `MCP server ${name} closed the connection during ${what}${tail}`,
          { details: { target: name }, cause: error },
        );
      }
      return bridgeError(
        "mcp_error",
        `MCP server ${name} answered ${what} with error ${error.code}: ${error.message}`,
        { details: { target: name, code: error.code }, cause: error },
      );
    }
    if (error instanceof Error && (error.name === "ZodError" || "issues" in error)) {
      return bridgeError(
        "mcp_malformed",
        `MCP server ${name} answered ${what} with a result that fails the MCP schema: ${summarizeIssues(error)}`,
        { details: { target: name }, cause: error },
      );
    }
    const message = error instanceof Error ? error.message : String(error);
    this.#current = undefined;
    return bridgeError(
      "mcp_crashed",
      `MCP server ${name} failed during ${what}: ${message}${tail}`,
      {
        details: {
          target: name,
        },
      },
    );
  }
}

function summarizeIssues(error: Error): string {
  const issues = (error as { issues?: Array<{ path?: unknown[]; message?: string }> }).issues;
  if (!Array.isArray(issues) || issues.length === 0) return error.message.slice(0, 300);
  return issues
    .slice(0, 3)
    .map((issue) => `${(issue.path ?? []).join(".") || "(root)"}: ${issue.message ?? "invalid"}`)
    .join("; ");
}
