import type { ChildProcess } from "node:child_process";
import { positiveLimit, type QueryOptions } from "@ocp/types";
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

/** How to start a provider child and the bounds of its session (both protocol families). */
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

/**
 * What a family makes of the handshake reply: the session's correlation
 * mode once accepted (H4: ids only to a provider that declared
 * `correlation`), or the error that ends the session.
 */
export type HandshakeVerdict = { readonly correlated: boolean } | StdioError;

/**
 * The child side both protocol families share: a provider child in its own
 * process group with a scrubbed environment, its stdout split into lines
 * (handed to the family's `onLine`), its stderr kept as a bounded tail, its
 * stdin written in batches, the handshake and then the requests correlated
 * with timeouts, and every pending request failed with one typed error when
 * the child exits, overflows a line or is shut down (the first failure
 * wins). The wire format of each line is the family's.
 *
 * `H` is what the family hands over as the handshake reply, `R` as a reply.
 */
export class ChildSession<H, R> {
  readonly id: string;
  readonly pid: number;
  readonly exited: Promise<ChildExit>;
  readonly #child: ChildProcess;
  readonly #stderr: TailBuffer;
  readonly #limits: { handshake: number; query: number; grace: number; inFlight: number };
  readonly #handshake: Correlator<H>;
  #requests: Correlator<R> | undefined;
  #correlated = false;
  #failure: StdioError | undefined;
  #shutdown: Promise<void> | undefined;
  #exit: ChildExit | undefined;
  /** Requests (and the handshake, shutdown) leave in batches (see {@link LineBatch}). */
  readonly #outbox = new LineBatch((text) => {
    const stdin = this.#child.stdin;
    if (stdin === null || stdin.destroyed || stdin.writableEnded) return;
    stdin.write(text);
  });
  #resolveExited!: (exit: ChildExit) => void;

  constructor(options: SpawnStdioProviderOptions, onLine: (line: string) => void) {
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
      onLine,
      onOverflow: (error) =>
        this.fail(
          stdioError("line_too_long", `provider "${this.id}": ${error.message}`, {
            details: { ...error.details },
            cause: error,
          }),
        ),
    });
    this.#child = spawnInGroup(options);
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

  /** The requests' correlator, once the handshake is accepted. */
  get requests(): Correlator<R> | undefined {
    return this.#requests;
  }

  /** Whether requests carry ids (the accepted handshake said so). */
  get correlated(): boolean {
    return this.#correlated;
  }

  stderr(): string {
    return this.#stderr.toString();
  }

  /**
   * Writes the handshake `line`, waits for the reply (bounded by
   * `handshakeTimeoutMs`) and lets `accept` judge it. A refused or missing
   * reply ends the session (the child is killed without grace) and throws.
   */
  async handshake(line: string, accept: (reply: H) => HandshakeVerdict): Promise<void> {
    let verdict: HandshakeVerdict;
    try {
      verdict = accept(
        await this.#handshake.request(() => this.#write(line), {
          timeoutMs: this.#limits.handshake,
        }),
      );
    } catch (error) {
      verdict = error as StdioError;
    }
    if (verdict instanceof Error) {
      await this.#abort(verdict);
      throw verdict;
    }
    this.#correlated = verdict.correlated;
    this.#requests = new Correlator({
      correlated: this.#correlated,
      maxInFlight: this.#limits.inFlight,
      peer: this.id,
    });
    if (this.#failure !== undefined) this.#requests.close(this.#failure);
  }

  /** The reply to the handshake, or why the line that came instead is not one. */
  handshakeReply(reply: { ok: true; value: H } | { ok: false; error: Error }): void {
    if (reply.ok) this.#handshake.resolve(undefined, reply.value);
    else this.#handshake.reject(undefined, reply.error);
  }

  /**
   * Sends one request: `encode` runs first (it may throw, e.g. on a query
   * its schema refuses) and returns the line for the id the correlator
   * picks. Bounded by the call's `timeoutMs` or `queryTimeoutMs`.
   */
  request(options: QueryOptions, encode: () => (id: string | undefined) => string): Promise<R> {
    const requests = this.#requests;
    if (requests === undefined) {
      return Promise.reject(stdioError("closed", `provider "${this.id}" is not ready`));
    }
    let timeoutMs: number;
    let line: (id: string | undefined) => string;
    try {
      timeoutMs = positiveLimit("timeoutMs", options.timeoutMs, this.#limits.query);
      line = encode();
    } catch (error) {
      return Promise.reject(error);
    }
    return requests.request((id) => this.#write(line(id)), {
      timeoutMs,
      signal: options.signal,
    });
  }

  /** `malformed_reply` for a line that is not what was due. */
  malformed(why: string, reason: string, cause?: unknown): StdioError {
    return stdioError("malformed_reply", `provider "${this.id}" sent a malformed reply: ${why}`, {
      details: { reason },
      cause,
    });
  }

  /** `malformed_reply` for an envelope of a type the request does not expect. */
  unexpected(type: string, said: string): StdioError {
    return stdioError("malformed_reply", `provider "${this.id}" ${said}`, { details: { type } });
  }

  /**
   * R2: refuses new requests, writes the family's `shutdown` line, ends
   * stdin and waits `shutdownGraceMs` for the child to exit; then kills its
   * process group (what it started may outlive it). Idempotent.
   */
  shutdown(line: string): Promise<void> {
    this.#shutdown ??= this.#shutdownOnce(line);
    return this.#shutdown;
  }

  async #shutdownOnce(line: string): Promise<void> {
    this.fail(stdioError("closed", `provider "${this.id}" was shut down`));
    if (this.#exit === undefined && this.pid !== -1) {
      try {
        this.#write(line);
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

  /** The session is over: every request fails with `error` (the first failure wins). */
  fail(error: StdioError): void {
    if (this.#failure !== undefined) return;
    this.#failure = error;
    this.#handshake.close(error);
    this.#requests?.close(error);
    if (error.code === "line_too_long") {
      this.#child.stdout?.destroy();
      if (this.pid !== -1) killGroup(this.pid);
    }
  }

  #onSpawnError(cause: Error, command: string): void {
    if (this.pid !== -1) return;
    this.fail(
      stdioError(
        "spawn_failed",
        `cannot start provider "${this.id}" (${command}): ${cause.message}`,
        { details: { command }, cause },
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
    this.fail(
      stdioError(
        "provider_crashed",
        `provider "${this.id}" exited (${exit.signal ?? `code ${exit.code}`})${reason === undefined ? "" : `: ${reason}`}`,
        { details: { exitCode: exit.code, signal: exit.signal, stderr: stderr.slice(-1024) } },
      ),
    );
    this.#child.stdout?.destroy();
    this.#child.stderr?.destroy();
    this.#resolveExited(exit);
  }

  /** Ends a session whose handshake failed: no grace for a child that never became a provider. */
  async #abort(error: StdioError): Promise<void> {
    this.fail(error);
    if (this.pid !== -1) killGroup(this.pid);
    this.#shutdown = settlesWithin(this.exited, this.#limits.grace).then(() => {});
    await this.#shutdown;
  }
}
