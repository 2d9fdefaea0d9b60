import type { ChildProcess } from "node:child_process";
import {
  type Capabilities,
  type ContextProvider,
  type ContextQuery,
  type ContextQueryResult,
  type Envelope,
  EXTENSIONS,
  EXTENSIONS_ENV,
  encodeLine,
  PROTOCOL_VERSION,
  type ProviderInfo,
  positiveLimit,
  type QueryOptions,
  toWire,
  versionsCompatible,
} from "@ocp/types";
import { decodeLineFast, encodeQueryJson, writeQueryLine } from "@ocp/types/fast";
import { settlesWithin } from "@ocp/types/internal";
import { type ChildCommand, spawnInGroup } from "./child.js";
import { Correlator } from "./correlator.js";
import { crashReason } from "./crash-reason.js";
import { fromErrorEnvelope, type StdioError, stdioError } from "./errors.js";
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

export interface SpawnStdioProviderOptions extends ChildCommand {
  /** Host-chosen id of the provider. */
  readonly id: string;
  readonly maxLineBytes?: number;
  readonly handshakeTimeoutMs?: number;
  readonly queryTimeoutMs?: number;
  readonly shutdownGraceMs?: number;
  readonly maxStderrBytes?: number;
  readonly maxInFlight?: number;
}

/** How a provider child ended. */
export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A provider child seen as a {@link ContextProvider}. */
export interface StdioProvider extends ContextProvider {
  readonly protocolVersion: string;
  readonly pid: number;
  /** Whether queries are pipelined with ids (`capabilities.correlation`). */
  readonly correlated: boolean;
  /** The latest bytes of the child's stderr (at most `maxStderrBytes`). */
  stderr(): string;
  /** Settles once the child has exited and its process group is killed. */
  readonly exited: Promise<ChildExit>;
}

/**
 * Spawns a provider child in its own process group with a scrubbed
 * environment and resolves once it has answered the handshake with a version
 * of our family (H3: otherwise `incompatible_version`, and the child is
 * killed). Every failure is an `OcpError` (see the README).
 */
export async function spawnStdioProvider(
  options: SpawnStdioProviderOptions,
): Promise<StdioProvider> {
  const connection = new StdioConnection(options);
  await connection.handshake();
  return connection;
}

class StdioConnection implements StdioProvider {
  readonly id: string;
  readonly pid: number;
  readonly exited: Promise<ChildExit>;
  #info: ProviderInfo | undefined;
  #capabilities: Capabilities | undefined;
  #version = "";
  readonly #child: ChildProcess;
  readonly #stderr: TailBuffer;
  readonly #limits: { handshake: number; query: number; grace: number; inFlight: number };
  readonly #handshake: Correlator<Envelope>;
  #queries: Correlator<ContextQueryResult> | undefined;
  #failure: StdioError | undefined;
  #shutdown: Promise<void> | undefined;
  #exit: ChildExit | undefined;
  /** Queries (and the handshake, shutdown) leave in batches (see {@link LineBatch}). */
  readonly #outbox = new LineBatch((text) => {
    const stdin = this.#child.stdin;
    if (stdin === null || stdin.destroyed || stdin.writableEnded) return;
    stdin.write(text);
  });
  #resolveExited!: (exit: ChildExit) => void;

  constructor(options: SpawnStdioProviderOptions) {
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
          stdioError(
            "line_too_long",
            `provider "${this.id}": ${error.message}`,
            { ...error.details },
            error,
          ),
        ),
    });

    // OCP_EXTENSIONS asks for our extensions out of band: the handshake stays the reference's.
    this.#child = spawnInGroup({
      ...options,
      env: { [EXTENSIONS_ENV]: EXTENSIONS.join(","), ...options.env },
    });
    this.pid = this.#child.pid ?? -1;
    const { stdin, stdout, stderr } = this.#child;
    stdin!.on("error", () => {});
    stdout!.on("data", (chunk: Buffer) => splitter.push(chunk));
    stderr!.on("data", (chunk: Buffer) => this.#stderr.push(chunk));
    this.#child.on("error", (cause) => this.#onSpawnError(cause, options.command));
    if (this.pid === -1) return;
    trackGroup(this.pid);
    this.#child.on("exit", (code, signal) => this.#onExit({ code, signal }));
    this.#child.on("close", () => this.#finish());
    // An idle provider does not keep the host alive: waiting requests hold a timer that does.
    this.#child.unref();
    for (const stream of [stdin, stdout, stderr]) (stream as { unref?: () => void }).unref?.();
  }

  get info(): ProviderInfo {
    return this.#info!;
  }

  get capabilities(): Capabilities {
    return this.#capabilities!;
  }

  get protocolVersion(): string {
    return this.#version;
  }

  get correlated(): boolean {
    return this.#capabilities?.correlation === true;
  }

  stderr(): string {
    return this.#stderr.toString();
  }

  async handshake(): Promise<void> {
    let reply: Envelope;
    try {
      reply = await this.#handshake.request(
        () => this.#write(encodeLine({ type: "handshake", protocol_version: PROTOCOL_VERSION })),
        { timeoutMs: this.#limits.handshake },
      );
    } catch (error) {
      await this.#abort(error as StdioError);
      throw error;
    }
    const failure = this.#checkAck(reply);
    if (failure !== undefined) {
      await this.#abort(failure);
      throw failure;
    }
  }

  #checkAck(reply: Envelope): StdioError | undefined {
    if (reply.type === "error") return fromErrorEnvelope(reply, this.id);
    if (reply.type !== "handshake_ack") {
      return stdioError(
        "malformed_reply",
        `provider "${this.id}" answered the handshake with "${reply.type}"`,
        { type: reply.type },
      );
    }
    if (!versionsCompatible(PROTOCOL_VERSION, reply.protocol_version)) {
      return stdioError(
        "incompatible_version",
        `provider "${this.id}" speaks ${reply.protocol_version}, not a version of the family of ${PROTOCOL_VERSION} (H3)`,
        { ours: PROTOCOL_VERSION, theirs: reply.protocol_version },
      );
    }
    this.#info = reply.provider;
    this.#capabilities = reply.capabilities;
    this.#version = reply.protocol_version;
    this.#queries = new Correlator({
      correlated: this.correlated,
      maxInFlight: this.#limits.inFlight,
      peer: this.id,
    });
    if (this.#failure !== undefined) this.#queries.close(this.#failure);
    return undefined;
  }

  query(query: ContextQuery, options: QueryOptions = {}): Promise<ContextQueryResult> {
    if (this.#queries === undefined)
      return Promise.reject(stdioError("closed", `provider "${this.id}" is not ready`));
    let payload: string;
    let timeoutMs: number;
    try {
      timeoutMs = positiveLimit("timeoutMs", options.timeoutMs, this.#limits.query);
      payload = encodeQueryJson(query) ?? JSON.stringify(toWire({ type: "query", query }).query);
    } catch (error) {
      return Promise.reject(error);
    }
    // The envelope around the encoded query, written from the envelope schema's member order.
    return this.#queries.request((id) => this.#write(writeQueryLine(id, payload)), {
      timeoutMs,
      signal: options.signal,
    });
  }

  shutdown(): Promise<void> {
    this.#shutdown ??= this.#shutdownOnce();
    return this.#shutdown;
  }

  async #shutdownOnce(): Promise<void> {
    this.#fail(stdioError("closed", `provider "${this.id}" was shut down`));
    if (this.#exit === undefined && this.pid !== -1) {
      try {
        this.#write(encodeLine({ type: "shutdown" }));
        this.#outbox.flush();
        this.#child.stdin?.end();
      } catch {
        // stdin already closed: the child is on its way out; the group kill below still runs.
      }
      await settlesWithin(this.exited, this.#limits.grace);
    }
    // The child may be gone while what it started lives on in its group.
    if (this.pid !== -1) killGroup(this.pid);
    await settlesWithin(this.exited, this.#limits.grace);
  }

  /** Queues one line for the child's stdin (see {@link LineBatch}); throws once stdin is closed. */
  #write(line: string): void {
    const stdin = this.#child.stdin;
    if (stdin === null || stdin.destroyed || stdin.writableEnded) {
      throw stdioError("closed", `cannot write to provider "${this.id}": its stdin is closed`);
    }
    this.#outbox.push(line);
  }

  #onLine(line: string): void {
    const decoded = decodeLineFast(line);
    if (this.#queries === undefined) {
      if (decoded.ok) this.#handshake.resolve(undefined, decoded.value);
      else this.#handshake.reject(undefined, this.#malformed(decoded.error));
      return;
    }
    const queries = this.#queries;
    if (queries === undefined) return;
    if (!decoded.ok) {
      queries.rejectUnattributed(this.#malformed(decoded.error));
      return;
    }
    const envelope = decoded.value;
    const id = this.correlated && "id" in envelope ? envelope.id : undefined;
    if (envelope.type === "frames") {
      queries.resolve(id, envelope.result);
    } else if (envelope.type === "error") {
      const error = fromErrorEnvelope(envelope, this.id);
      if (this.correlated && id === undefined) queries.rejectUnattributed(error);
      else queries.reject(id, error);
    } else {
      queries.rejectUnattributed(
        stdioError(
          "malformed_reply",
          `provider "${this.id}" sent "${envelope.type}" where a reply was due`,
          { type: envelope.type },
        ),
      );
    }
  }

  #malformed(cause: Error & { code: string }): StdioError {
    return stdioError(
      "malformed_reply",
      `provider "${this.id}" sent a malformed reply: ${cause.message}`,
      { reason: cause.code },
      cause,
    );
  }

  /** The connection is over: every request fails with `error` (the first failure wins). */
  #fail(error: StdioError): void {
    if (this.#failure !== undefined) return;
    this.#failure = error;
    this.#handshake.close(error);
    this.#queries?.close(error);
    if (error.code === "line_too_long") {
      this.#child.stdout?.destroy();
      if (this.pid !== -1) killGroup(this.pid);
    }
  }

  #onSpawnError(cause: Error, command: string): void {
    if (this.pid !== -1) return;
    this.#fail(
      stdioError(
        "spawn_failed",
        `cannot start provider "${this.id}" (${command}): ${cause.message}`,
        { command },
        cause,
      ),
    );
    this.#exit = { code: null, signal: null };
    this.#resolveExited(this.#exit);
  }

  #onExit(exit: ChildExit): void {
    this.#exit = exit;
    killGroup(this.pid);
    untrackGroup(this.pid);
    // Replies written just before the exit may still be in the pipe: read them, within bounds.
    setTimeout(() => this.#finish(), EXIT_DRAIN_MS).unref();
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

  /** Ends a connection whose handshake failed: no grace for a child that never became a provider. */
  async #abort(error: StdioError): Promise<void> {
    this.#fail(error);
    if (this.pid !== -1) killGroup(this.pid);
    this.#shutdown = settlesWithin(this.exited, this.#limits.grace).then(() => {});
    await this.#shutdown;
  }
}
