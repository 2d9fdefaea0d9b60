import type { ChildProcess } from "node:child_process";
import { LineSplitter } from "@ocp/transport-stdio";
import {
  type ChildCommand,
  killGroup,
  spawnInGroup,
  TailBuffer,
  trackGroup,
  untrackGroup,
} from "@ocp/transport-stdio/process";
import { decodeLine } from "@ocp/types";
import {
  EOF_GRACE_MS,
  EXIT_DRAIN_MS,
  KILL_WAIT_MS,
  MAX_LINE_BYTES,
  MAX_MESSAGES_PER_CONNECTION,
  MAX_STDERR_BYTES,
} from "../limits.js";
import {
  Inbox,
  type Incoming,
  type Recorded,
  type Session,
  type ShutdownOutcome,
} from "../session.js";

export interface StdioSessionOptions extends ChildCommand {
  readonly maxLineBytes?: number;
}

interface Exit {
  readonly code: number | null;
  readonly signal: string | null;
}

/**
 * A raw NDJSON connection to a provider child: the bytes it writes are what
 * the checks see (the transport's line splitter and line limit, but no
 * decoding policy). The child runs in its own process group with the
 * transport's scrubbed environment, like a real host would run it.
 */
export class StdioSession implements Session {
  readonly label: string;
  readonly #child: ChildProcess;
  readonly #inbox = new Inbox();
  readonly #stderr = new TailBuffer(MAX_STDERR_BYTES);
  readonly #record: (entry: Recorded) => void;
  readonly #exited: Promise<Exit>;
  #exit: Exit | undefined;
  #context = "spawn";
  #messages = 0;
  #flood: string | undefined;

  constructor(options: StdioSessionOptions, label: string, record: (entry: Recorded) => void) {
    this.label = label;
    this.#record = record;
    const splitter = new LineSplitter({
      maxLineBytes: options.maxLineBytes ?? MAX_LINE_BYTES,
      onLine: (line) => this.#onLine(line),
      onOverflow: (error) => this.#inbox.push({ kind: "failure", message: error.message }),
    });
    let resolveExit!: (exit: Exit) => void;
    this.#exited = new Promise((resolve) => {
      resolveExit = resolve;
    });
    this.#child = spawnInGroup(options);
    const pid = this.#child.pid;
    // Its group is killed if the suite's process exits or is interrupted first.
    if (pid !== undefined) trackGroup(pid);
    this.#child.stdin?.on("error", () => {});
    this.#child.stdout?.on("data", (chunk: Buffer) => splitter.push(chunk));
    this.#child.stderr?.on("data", (chunk: Buffer) => this.#stderr.push(chunk));
    const finish = (exit: Exit) => {
      if (this.#exit !== undefined) return;
      this.#exit = exit;
      if (pid !== undefined) {
        killGroup(pid);
        untrackGroup(pid);
      }
      this.#inbox.end({ kind: "exit", ...exit, stderr: this.#stderr.toString() });
      resolveExit(exit);
    };
    this.#child.on("error", (error) => {
      if (pid === undefined) {
        this.#stderr.push(Buffer.from(`cannot start ${options.command}: ${error.message}`));
        finish({ code: null, signal: null });
      }
    });
    this.#child.on("exit", (code, signal) => {
      // Lines written just before the exit may still be in the pipe: `close` reads them.
      const drain = setTimeout(() => finish({ code, signal }), EXIT_DRAIN_MS);
      drain.unref();
      this.#child.once("close", () => {
        clearTimeout(drain);
        finish({ code, signal });
      });
    });
  }

  #onLine(line: string): void {
    this.#messages += 1;
    if (this.#messages > MAX_MESSAGES_PER_CONNECTION) {
      if (this.#flood === undefined) {
        this.#flood = `the provider wrote more than ${MAX_MESSAGES_PER_CONNECTION} messages on one connection (a flood) and was cut off`;
        this.#inbox.end({ kind: "failure", message: this.#flood });
        void this.dispose();
      }
      return;
    }
    this.#record({ session: this.label, after: this.#context, raw: line });
    this.#inbox.push({ kind: "message", raw: line, decoded: decodeLine(line) });
  }

  send(message: Record<string, unknown> | string, context: string): void {
    this.#context = context;
    const stdin = this.#child.stdin;
    if (this.#exit !== undefined || stdin === null || stdin.destroyed || stdin.writableEnded)
      return;
    stdin.write(typeof message === "string" ? `${message}\n` : `${JSON.stringify(message)}\n`);
  }

  next(timeoutMs: number): Promise<Incoming> {
    return this.#inbox.next(timeoutMs);
  }

  async shutdown(timeoutMs: number): Promise<ShutdownOutcome> {
    if (this.#flood !== undefined) return { kind: "rejected", message: this.#flood };
    if (this.#exit !== undefined) return { kind: "already-gone", ...this.#exit };
    this.send({ type: "shutdown" }, "shutdown");
    const exit = await within(this.#exited, timeoutMs);
    if (exit !== undefined) return { kind: "exited", ...exit };
    this.#child.stdin?.end();
    if ((await within(this.#exited, EOF_GRACE_MS)) !== undefined) {
      return { kind: "ignored", waitedMs: timeoutMs, after: "exited-on-eof" };
    }
    await this.dispose();
    return {
      kind: "ignored",
      waitedMs: timeoutMs,
      after: this.#exit === undefined ? "still-running" : "killed",
    };
  }

  /** The latest bytes of the child's stderr. */
  stderr(): string {
    return this.#stderr.toString();
  }

  async dispose(): Promise<void> {
    const pid = this.#child.pid;
    if (this.#exit === undefined && pid !== undefined) {
      killGroup(pid);
      await within(this.#exited, KILL_WAIT_MS);
    }
    this.#child.stdout?.destroy();
    this.#child.stderr?.destroy();
    this.#child.stdin?.destroy();
  }
}

/** Waits for `promise` at most `ms`; `undefined` when time ran out. */
export function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
