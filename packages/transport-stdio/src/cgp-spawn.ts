import type { ChildProcess } from "node:child_process";
import { positiveLimit, type QueryOptions } from "@ocp/types";
import {
  CGP_PROTOCOL_VERSION,
  type CgpEnvelope,
  type CgpReplyEnvelope,
  cgpRemoteError,
  checkCgpAck,
  decodeCgpLine,
} from "@ocp/types/cgp";
import { settlesWithin } from "@ocp/types/internal";
import { type ChildCommand, spawnInGroup } from "./child.js";
import { Correlator } from "./correlator.js";
import { crashReason } from "./crash-reason.js";
import { type StdioError, stdioError } from "./errors.js";
import {
  EXIT_DRAIN_MS,
  HANDSHAKE_TIMEOUT_MS,
  MAX_IN_FLIGHT,
  MAX_STDERR_BYTES,
  QUERY_TIMEOUT_MS,
  SHUTDOWN_GRACE_MS,
} from "./limits.js";
import { LineBatch } from "./line-batch.js";
import { LineSplitter } from "./line-splitter.js";
import { killGroup, trackGroup, untrackGroup } from "./process-groups.js";
import { TailBuffer } from "./tail-buffer.js";

type Ack = Extract<CgpEnvelope, { type: "handshake_ack" }>;
type Query = Extract<CgpEnvelope, { type: "query" }>["query"];
type Result = Extract<CgpEnvelope, { type: "frames" }>["result"];
type VerifyRequest = Extract<CgpEnvelope, { type: "verify" }>["request"];
type VerifyResponse = Extract<CgpEnvelope, { type: "verified" }>["response"];

export interface SpawnCgpStdioProviderOptions extends ChildCommand {
  /** Host-chosen id of the provider. */
  readonly id: string;
  readonly maxLineBytes?: number;
  readonly handshakeTimeoutMs?: number;
  readonly queryTimeoutMs?: number;
  readonly shutdownGraceMs?: number;
  readonly maxStderrBytes?: number;
  readonly maxInFlight?: number;
}

/** A `contextgraph/1` provider child: the CGP session the host drives. */
export interface CgpStdioProvider {
  readonly id: string;
  readonly pid: number;
  readonly family: "contextgraph/1";
  readonly protocolVersion: string;
  readonly info: Ack["provider"];
  readonly capabilities: Ack["capabilities"];
  /** H4: ids are sent (and must be echoed) only when the provider declared `correlation`. */
  readonly correlated: boolean;
  query(query: Query, options?: QueryOptions): Promise<Result>;
  /** §9: frame identities only, never bodies (V1); sent only when `capabilities.verify`. */
  verify(request: VerifyRequest, options?: QueryOptions): Promise<VerifyResponse>;
  shutdown(): Promise<void>;
  stderr(): string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Spawns a provider child (own process group, scrubbed environment, as
 * `spawnStdioProvider`) and handshakes in `contextgraph/1.0-draft`. A
 * provider answering with another family, or refusing with
 * `incompatible_version`, fails with `incompatible_version` (H1, H3) and is
 * killed. Every reply is decoded by the CGP interop path (U1, U2).
 */
export async function spawnCgpStdioProvider(
  options: SpawnCgpStdioProviderOptions,
): Promise<CgpStdioProvider> {
  const connection = new CgpStdioConnection(options);
  await connection.handshake();
  return connection;
}

class CgpStdioConnection implements CgpStdioProvider {
  readonly id: string;
  readonly pid: number;
  readonly family = "contextgraph/1" as const;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  #ack: Ack | undefined;
  readonly #child: ChildProcess;
  readonly #stderr: TailBuffer;
  readonly #limits: { handshake: number; query: number; grace: number; inFlight: number };
  readonly #handshake: Correlator<unknown>;
  #requests: Correlator<CgpReplyEnvelope> | undefined;
  #failure: StdioError | undefined;
  #shutdown: Promise<void> | undefined;
  #exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  readonly #outbox = new LineBatch((text) => {
    const stdin = this.#child.stdin;
    if (stdin === null || stdin.destroyed || stdin.writableEnded) return;
    stdin.write(text);
  });
  #resolveExited!: (exit: { code: number | null; signal: NodeJS.Signals | null }) => void;

  constructor(options: SpawnCgpStdioProviderOptions) {
    this.id = options.id;
    this.#limits = {
      handshake: positiveLimit(
        "handshakeTimeoutMs",
        options.handshakeTimeoutMs,
        HANDSHAKE_TIMEOUT_MS,
      ),
      query: positiveLimit("queryTimeoutMs", options.queryTimeoutMs, QUERY_TIMEOUT_MS),
      grace: positiveLimit("shutdownGraceMs", options.shutdownGraceMs, SHUTDOWN_GRACE_MS),
      inFlight: positiveLimit("maxInFlight", options.maxInFlight, MAX_IN_FLIGHT),
    };
    this.#stderr = new TailBuffer(
      positiveLimit("maxStderrBytes", options.maxStderrBytes, MAX_STDERR_BYTES),
    );
    this.#handshake = new Correlator({ correlated: false, maxInFlight: 1, peer: this.id });
    this.exited = new Promise((resolve) => {
      this.#resolveExited = resolve;
    });
    const splitter = new LineSplitter({
      maxLineBytes: options.maxLineBytes,
      onLine: (line) => this.#onLine(line),
      onOverflow: (error) =>
        this.#fail(
          stdioError("line_too_long", `provider "${this.id}": ${error.message}`, {
            ...error.details,
          }),
        ),
    });
    this.#child = spawnInGroup(options);
    this.pid = this.#child.pid ?? -1;
    const { stdin, stdout, stderr } = this.#child;
    stdin!.on("error", () => {});
    stdout!.on("data", (chunk: Buffer) => splitter.push(chunk));
    stderr!.on("data", (chunk: Buffer) => this.#stderr.push(chunk));
    this.#child.on("error", (cause) => {
      if (this.pid !== -1) return;
      this.#fail(
        stdioError(
          "spawn_failed",
          `cannot start provider "${this.id}" (${options.command}): ${cause.message}`,
          { command: options.command },
          cause,
        ),
      );
      this.#exit = { code: null, signal: null };
      this.#resolveExited(this.#exit);
    });
    if (this.pid === -1) return;
    trackGroup(this.pid);
    this.#child.on("exit", (code, signal) => {
      this.#exit = { code, signal };
      killGroup(this.pid);
      untrackGroup(this.pid);
      setTimeout(() => this.#finish(), EXIT_DRAIN_MS).unref();
    });
    this.#child.on("close", () => this.#finish());
    this.#child.unref();
    for (const stream of [stdin, stdout, stderr]) (stream as { unref?: () => void }).unref?.();
  }

  get protocolVersion(): string {
    return this.#ack?.protocol_version ?? CGP_PROTOCOL_VERSION;
  }
  get info(): Ack["provider"] {
    return this.#ack!.provider;
  }
  get capabilities(): Ack["capabilities"] {
    return this.#ack!.capabilities;
  }
  get correlated(): boolean {
    return this.#ack?.capabilities.correlation === true;
  }
  stderr(): string {
    return this.#stderr.toString();
  }

  async handshake(): Promise<void> {
    let reply: unknown;
    try {
      reply = await this.#handshake.request(
        () =>
          this.#write(
            `${JSON.stringify({ type: "handshake", protocol_version: CGP_PROTOCOL_VERSION })}\n`,
          ),
        { timeoutMs: this.#limits.handshake },
      );
    } catch (error) {
      await this.#abort(error as StdioError);
      throw error;
    }
    const checked = checkCgpAck(reply, this.id, stdioError);
    if (!checked.ok) {
      await this.#abort(checked.error as StdioError);
      throw checked.error;
    }
    this.#ack = checked.ack;
    this.#requests = new Correlator({
      correlated: this.correlated,
      maxInFlight: this.#limits.inFlight,
      peer: this.id,
    });
    if (this.#failure !== undefined) this.#requests.close(this.#failure);
  }

  query(query: Query, options: QueryOptions = {}): Promise<Result> {
    return this.#request("query", { query }, options).then((reply) => {
      if (reply.type === "frames") return reply.result;
      throw this.#unexpected(reply.type, "query");
    });
  }

  verify(request: VerifyRequest, options: QueryOptions = {}): Promise<VerifyResponse> {
    return this.#request("verify", { request }, options).then((reply) => {
      if (reply.type === "verified") return reply.response;
      throw this.#unexpected(reply.type, "verify");
    });
  }

  #request(
    type: "query" | "verify",
    body: object,
    options: QueryOptions,
  ): Promise<CgpReplyEnvelope> {
    const requests = this.#requests;
    if (requests === undefined) {
      return Promise.reject(stdioError("closed", `provider "${this.id}" is not ready`));
    }
    let timeoutMs: number;
    try {
      timeoutMs = positiveLimit("timeoutMs", options.timeoutMs, this.#limits.query);
    } catch (error) {
      return Promise.reject(error);
    }
    // §3.2: an id only to a provider that declared correlation.
    return requests.request(
      (id) =>
        this.#write(`${JSON.stringify({ type, ...(id === undefined ? {} : { id }), ...body })}\n`),
      { timeoutMs, signal: options.signal },
    );
  }

  #unexpected(type: string, asked: string): StdioError {
    return stdioError(
      "malformed_reply",
      `provider "${this.id}" answered a ${asked} with "${type}"`,
      { type },
    );
  }

  shutdown(): Promise<void> {
    this.#shutdown ??= this.#shutdownOnce();
    return this.#shutdown;
  }

  async #shutdownOnce(): Promise<void> {
    this.#fail(stdioError("closed", `provider "${this.id}" was shut down`));
    if (this.#exit === undefined && this.pid !== -1) {
      try {
        this.#write(`${JSON.stringify({ type: "shutdown" })}\n`);
        this.#outbox.flush();
        this.#child.stdin?.end();
      } catch {
        // stdin already closed: the group kill below still runs.
      }
      await settlesWithin(this.exited, this.#limits.grace);
    }
    if (this.pid !== -1) killGroup(this.pid);
    await settlesWithin(this.exited, this.#limits.grace);
  }

  #write(line: string): void {
    const stdin = this.#child.stdin;
    if (stdin === null || stdin.destroyed || stdin.writableEnded) {
      throw stdioError("closed", `cannot write to provider "${this.id}": its stdin is closed`);
    }
    this.#outbox.push(line);
  }

  #onLine(line: string): void {
    const requests = this.#requests;
    if (requests === undefined) {
      // The handshake reply is judged whole (another family's ack is H3, not garbage).
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (cause) {
        this.#handshake.reject(undefined, this.#malformed("not JSON", cause));
        return;
      }
      this.#handshake.resolve(undefined, value);
      return;
    }
    const decoded = decodeCgpLine(line);
    if (!decoded.ok) {
      requests.rejectUnattributed(this.#malformed(decoded.error));
      return;
    }
    const envelope = decoded.envelope;
    const id = this.correlated ? (envelope as { id?: string }).id : undefined;
    if (envelope.type === "frames" || envelope.type === "verified") {
      requests.resolve(id, envelope as CgpReplyEnvelope);
    } else if (envelope.type === "error") {
      const error = cgpRemoteError(envelope, this.id, stdioError);
      if (this.correlated && id === undefined) requests.rejectUnattributed(error);
      else requests.reject(id, error);
    } else {
      requests.rejectUnattributed(this.#unexpected(envelope.type, "request"));
    }
  }

  #malformed(why: string, cause?: unknown): StdioError {
    return stdioError(
      "malformed_reply",
      `provider "${this.id}" sent a malformed reply: ${why}`,
      { reason: why },
      cause,
    );
  }

  #fail(error: StdioError): void {
    if (this.#failure !== undefined) return;
    this.#failure = error;
    this.#handshake.close(error);
    this.#requests?.close(error);
    if (error.code === "line_too_long") {
      this.#child.stdout?.destroy();
      if (this.pid !== -1) killGroup(this.pid);
    }
  }

  #finish(): void {
    const exit = this.#exit;
    if (exit === undefined) return;
    const stderr = this.stderr();
    const reason = crashReason(stderr);
    this.#fail(
      stdioError(
        "provider_crashed",
        `provider "${this.id}" exited (${exit.signal ?? `code ${exit.code}`})${reason === undefined ? "" : `: ${reason}`}`,
        { exitCode: exit.code, signal: exit.signal, stderr: stderr.slice(-1024) },
      ),
    );
    this.#child.stdout?.destroy();
    this.#child.stderr?.destroy();
    this.#resolveExited(exit);
  }

  async #abort(error: StdioError): Promise<void> {
    this.#fail(error);
    if (this.pid !== -1) killGroup(this.pid);
    this.#shutdown = settlesWithin(this.exited, this.#limits.grace).then(() => {});
    await this.#shutdown;
  }
}
