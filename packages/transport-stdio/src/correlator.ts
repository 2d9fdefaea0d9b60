import type { OcpError } from "@ocp/types";
import { type Deadline, Deadlines } from "@ocp/types/internal";
import { type StdioErrorCode, stdioError } from "./errors.js";

/** Writes one request on the wire, with `id` when the peer correlates. */
export type Send = (id: string | undefined) => void;

export interface RequestOptions {
  /** Fails the request with `timeout` this long after the call, queue time included. */
  readonly timeoutMs: number;
  /** Fails the request with `aborted` (the signal's reason as `cause`). */
  readonly signal?: AbortSignal | undefined;
}

export interface CorrelatorOptions {
  /**
   * Whether the peer echoes ids (`capabilities.correlation`). Correlated:
   * up to `maxInFlight` requests on the wire, replies matched by id.
   * Plain: one request at a time, in call order, the reply is the next line.
   */
  readonly correlated: boolean;
  readonly maxInFlight: number;
  /** Names the peer in error messages. */
  readonly peer: string;
}

interface Entry<T> {
  readonly send: Send;
  readonly resolve: (value: T) => void;
  readonly reject: (error: Error) => void;
  /** Fails the request with `timeout` when it fires; cleared when it settles. */
  deadline: Deadline | undefined;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: (() => void) | undefined;
  id: string | undefined;
  state: "queued" | "in_flight" | "abandoned" | "settled";
}

/**
 * Request/reply correlation for one connection, apart from any I/O: a queue,
 * the requests in flight, one timeout and one AbortSignal per request, and
 * every request failed with a typed error when the connection closes.
 *
 * A plain peer's replies carry no id, so a request that times out or is
 * aborted while on the wire stays in its slot as `abandoned` until its reply
 * arrives and is dropped; the next request is sent only then, so a late reply
 * is never taken for the answer to another request.
 */
export class Correlator<T> {
  readonly #options: CorrelatorOptions;
  readonly #queue: Entry<T>[] = [];
  /** Correlated: requests on the wire by id. */
  readonly #byId = new Map<string, Entry<T>>();
  /** Plain: requests on the wire, oldest first (at most one). */
  readonly #inOrder: Entry<T>[] = [];
  /** One timer for all deadlines; it holds the host's event loop only while a request is pending. */
  readonly #deadlines = new Deadlines();
  #nextId = 0;
  #closed: OcpError<StdioErrorCode> | undefined;

  constructor(options: CorrelatorOptions) {
    this.#options = options;
  }

  /** Requests on the wire (abandoned ones included), and requests waiting to be sent. */
  get size(): { inFlight: number; queued: number } {
    return { inFlight: this.#byId.size + this.#inOrder.length, queued: this.#queue.length };
  }

  request(send: Send, options: RequestOptions): Promise<T> {
    if (this.#closed !== undefined) return Promise.reject(this.#closedError());
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(this.#abortError(signal));
    return new Promise<T>((resolve, reject) => {
      const entry: Entry<T> = {
        send,
        resolve,
        reject,
        deadline: undefined,
        timeoutMs: options.timeoutMs,
        signal,
        onAbort:
          signal === undefined ? undefined : () => this.#abandon(entry, this.#abortError(signal)),
        id: undefined,
        state: "queued",
      };
      signal?.addEventListener("abort", entry.onAbort!, { once: true });
      entry.deadline = this.#deadlines.add(options.timeoutMs, () => this.#expire(entry));
      this.#queue.push(entry);
      this.#pump();
    });
  }

  /**
   * Delivers a reply: by id when correlated, to the oldest request on the
   * wire when plain. Returns false when no live request takes it (an unknown
   * id, or the late reply of an abandoned request).
   */
  resolve(id: string | undefined, value: T): boolean {
    const entry = this.#take(id);
    if (entry === undefined) return false;
    this.#settle(entry);
    entry.resolve(value);
    return true;
  }

  /** Like {@link resolve}, for a reply that is a failure. */
  reject(id: string | undefined, error: Error): boolean {
    const entry = this.#take(id);
    if (entry === undefined) return false;
    this.#settle(entry);
    entry.reject(error);
    return true;
  }

  /**
   * A reply that names no request it can be matched to (not JSON, not an
   * envelope): plain, it is the answer of the request on the wire; correlated,
   * it could belong to any of them, so they all fail.
   */
  rejectUnattributed(error: Error): void {
    if (!this.#options.correlated) {
      this.reject(undefined, error);
      return;
    }
    for (const entry of [...this.#byId.values()]) this.reject(entry.id, error);
  }

  /** Fails every request, queued or on the wire, and refuses new ones. Idempotent. */
  close(error: OcpError<StdioErrorCode>): void {
    if (this.#closed !== undefined) return;
    this.#closed = error;
    const all = [...this.#inOrder, ...this.#byId.values(), ...this.#queue];
    this.#inOrder.length = 0;
    this.#byId.clear();
    this.#queue.length = 0;
    for (const entry of all) {
      if (entry.state === "settled" || entry.state === "abandoned") continue;
      this.#settle(entry);
      entry.reject(error);
    }
  }

  #take(id: string | undefined): Entry<T> | undefined {
    if (this.#options.correlated) {
      if (id === undefined) return undefined;
      const entry = this.#byId.get(id);
      if (entry === undefined) return undefined;
      this.#byId.delete(id);
      this.#pump();
      return entry;
    }
    const entry = this.#inOrder.shift();
    this.#pump();
    return entry?.state === "in_flight" ? entry : undefined;
  }

  #pump(): void {
    const limit = this.#options.correlated ? this.#options.maxInFlight : 1;
    while (this.#queue.length > 0 && this.#byId.size + this.#inOrder.length < limit) {
      const entry = this.#queue.shift()!;
      if (this.#options.correlated) {
        entry.id = (++this.#nextId).toString(36);
        this.#byId.set(entry.id, entry);
      } else {
        this.#inOrder.push(entry);
      }
      entry.state = "in_flight";
      try {
        entry.send(entry.id);
      } catch (cause) {
        const error = stdioError("closed", `cannot write to provider "${this.#options.peer}"`, {
          cause,
        });
        if (entry.id !== undefined) this.#byId.delete(entry.id);
        else this.#inOrder.splice(this.#inOrder.indexOf(entry), 1);
        this.#settle(entry);
        entry.reject(error);
      }
    }
  }

  #expire(entry: Entry<T>): void {
    const timeoutMs = entry.timeoutMs;
    const error = stdioError(
      "timeout",
      `provider "${this.#options.peer}" did not answer within ${timeoutMs} ms`,
      { details: { timeoutMs, state: entry.state } },
    );
    this.#abandon(entry, error);
  }

  /** A timeout or an abort: the caller gets its error now; the slot is freed per the mode. */
  #abandon(entry: Entry<T>, error: Error): void {
    const state = entry.state;
    if (state === "settled" || state === "abandoned") return;
    this.#settle(entry);
    if (state === "queued") {
      this.#queue.splice(this.#queue.indexOf(entry), 1);
    } else if (this.#options.correlated) {
      this.#byId.delete(entry.id!);
      this.#pump();
    } else {
      entry.state = "abandoned";
    }
    entry.reject(error);
  }

  #settle(entry: Entry<T>): void {
    entry.state = "settled";
    if (entry.deadline !== undefined) this.#deadlines.clear(entry.deadline);
    if (entry.onAbort !== undefined) entry.signal?.removeEventListener("abort", entry.onAbort);
  }

  #abortError(signal: AbortSignal): OcpError<StdioErrorCode> {
    return stdioError("aborted", `query to provider "${this.#options.peer}" was aborted`, {
      cause: signal.reason,
    });
  }

  #closedError(): OcpError<StdioErrorCode> {
    const closed = this.#closed!;
    return stdioError("closed", `provider "${this.#options.peer}" is closed: ${closed.message}`, {
      details: { reason: closed.code },
      cause: closed,
    });
  }
}
