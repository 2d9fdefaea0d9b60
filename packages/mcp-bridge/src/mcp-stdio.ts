import { type ChildProcess, spawn } from "node:child_process";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { killGroup, scrubbedEnv, trackGroup, untrackGroup } from "@ocp/transport-stdio/internal";
import { settlesWithin } from "@ocp/types/internal";
import { MAX_MCP_LINE_BYTES, MAX_STDERR_BYTES, SHUTDOWN_GRACE_MS } from "./limits.js";

export interface McpStdioOptions {
  readonly command: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  /** Variables the server gets besides `PATH` and `HOME`; nothing else of ours reaches it. */
  readonly env?: Readonly<Record<string, string>>;
  readonly maxLineBytes?: number;
  readonly shutdownGraceMs?: number;
}

/**
 * An MCP client transport over a child's stdin/stdout, spawned by the rules
 * of `@ocp/transport-stdio` rather than the SDK's `StdioClientTransport`:
 * a scrubbed environment (PATH and HOME only, plus what the user names),
 * its own process group (killed whole on close, and when this process
 * exits), stderr kept (bounded) for error messages, never inherited.
 */
export class McpStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #options: McpStdioOptions;
  readonly #buffer: ReadBuffer;
  #child: ChildProcess | undefined;
  #stderrHead = "";
  #stderrTail = "";
  #stderrCut = false;
  #closed = false;
  #overflow: number | undefined;
  #exited: Promise<void> = Promise.resolve();

  constructor(options: McpStdioOptions) {
    this.#options = options;
    this.#buffer = new ReadBuffer({ maxBufferSize: options.maxLineBytes ?? MAX_MCP_LINE_BYTES });
  }

  /**
   * What the server wrote to stderr: all of it, or, past twice
   * MAX_STDERR_BYTES, its start and its end (a crash names its cause at the
   * top of a stack trace, a log names it at the bottom).
   */
  stderr(): string {
    return this.#stderrCut
      ? `${this.#stderrHead}\n[…]\n${this.#stderrTail}`
      : this.#stderrHead + this.#stderrTail;
  }

  #keepStderr(text: string): void {
    const room = MAX_STDERR_BYTES - this.#stderrHead.length;
    if (room > 0) this.#stderrHead += text.slice(0, room);
    const rest = room > 0 ? text.slice(room) : text;
    if (rest === "") return;
    this.#stderrTail += rest;
    if (this.#stderrTail.length > MAX_STDERR_BYTES) {
      this.#stderrTail = this.#stderrTail.slice(-MAX_STDERR_BYTES);
      this.#stderrCut = true;
    }
  }

  /**
   * The line limit, in bytes, once the server wrote a line over it (and the
   * connection was closed for it); undefined otherwise.
   */
  overflow(): number | undefined {
    return this.#overflow;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.#options.command, [...(this.#options.args ?? [])], {
        cwd: this.#options.cwd,
        env: scrubbedEnv(this.#options.env),
        stdio: ["pipe", "pipe", "pipe"],
        detached: true,
        windowsHide: true,
      });
      this.#child = child;
      this.#exited = new Promise((done) => child.once("close", () => done()));
      child.once("error", (error) => {
        reject(error);
        this.onerror?.(error);
        this.#end();
      });
      child.once("spawn", () => {
        if (child.pid !== undefined) trackGroup(child.pid);
        resolve();
      });
      child.once("exit", () => {
        if (child.pid !== undefined) {
          killGroup(child.pid);
          untrackGroup(child.pid);
        }
      });
      child.once("close", () => this.#end());
      child.stdin!.on("error", (error) => this.onerror?.(error));
      child.stdout!.on("data", (chunk: Buffer) => this.#read(chunk));
      child.stderr!.setEncoding("utf8");
      child.stderr!.on("data", (chunk: string) => this.#keepStderr(chunk));
    });
  }

  #read(chunk: Buffer): void {
    if (this.#overflow !== undefined) return;
    try {
      this.#buffer.append(chunk);
    } catch (error) {
      // A line over the bound: the stream cannot be trusted any more.
      this.#overflow = this.#options.maxLineBytes ?? MAX_MCP_LINE_BYTES;
      this.onerror?.(error as Error);
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.#buffer.readMessage();
      } catch (error) {
        // Not JSON, or not JSON-RPC: report it and read on.
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.#child?.stdin;
      if (stdin === undefined || stdin === null || stdin.destroyed || stdin.writableEnded) {
        reject(new Error("the MCP server's stdin is closed"));
        return;
      }
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once("drain", () => resolve());
    });
  }

  /** Closes stdin, lets the server exit within the grace, then kills its whole group. */
  async close(): Promise<void> {
    const child = this.#child;
    if (child === undefined || this.#closed) return;
    child.stdin?.end();
    const grace = this.#options.shutdownGraceMs ?? SHUTDOWN_GRACE_MS;
    await settlesWithin(this.#exited, grace);
    if (child.pid !== undefined) {
      killGroup(child.pid);
      untrackGroup(child.pid);
    }
    this.#end();
  }

  #end(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#buffer.clear();
    this.onclose?.();
  }
}
