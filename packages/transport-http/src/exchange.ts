import type { Deadline, Deadlines } from "@ocp/types/internal";
import type { Dispatcher } from "undici";

/** The status and the whole body of an answer. */
export interface Reply {
  readonly status: number;
  readonly text: string;
}

/** How an exchange fails of its own accord: the error to reject with, made only when needed. */
export interface ExchangeFailures {
  tooLarge(status: number): Error;
  timeout(timeoutMs: number): Error;
  aborted(signal: AbortSignal): Error;
}

/**
 * One POST as an undici dispatch handler: the reply body collected into one
 * string, never more than `maxBytes` of it (refused up front when its
 * declared length is over it), settled once. No `AbortController`, no
 * readable stream and no timer of its own: the deadline is kept by the
 * client's {@link Deadlines}, a caller's signal gets one listener.
 */
export class Exchange implements Dispatcher.DispatchHandlers {
  readonly #timeoutMs: number;
  readonly #maxBytes: number;
  readonly #failures: ExchangeFailures;
  readonly #signal: AbortSignal | undefined;
  #resolve!: (reply: Reply) => void;
  #reject!: (error: unknown) => void;
  #abort: ((reason?: Error) => void) | undefined;
  /** Set once the exchange has failed on our side; aborts the request once it is dispatched. */
  #reason: Error | undefined;
  #settled = false;
  #status = 0;
  #chunks: Buffer[] = [];
  #size = 0;
  readonly #deadlines: Deadlines;
  /** When the whole reply must be in: kept by the client's one timer for all its exchanges. */
  readonly #deadline: Deadline;
  readonly promise: Promise<Reply>;

  constructor(
    deadlines: Deadlines,
    timeoutMs: number,
    maxBytes: number,
    failures: ExchangeFailures,
    signal: AbortSignal | undefined,
  ) {
    this.#timeoutMs = timeoutMs;
    this.#maxBytes = maxBytes;
    this.#failures = failures;
    this.#deadlines = deadlines;
    this.promise = new Promise<Reply>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.#deadline = deadlines.add(timeoutMs, () => this.expire());
    this.#signal = signal;
    signal?.addEventListener("abort", this.#onAbort, { once: true });
  }

  readonly #onAbort = (): void => {
    this.fail(this.#failures.aborted(this.#signal as AbortSignal));
  };

  /** Fails the exchange with the timeout error: its deadline has passed. */
  expire(): void {
    this.fail(this.#failures.timeout(this.#timeoutMs));
  }

  /** Fails the exchange now (deadline, signal, body limit) and aborts the request on the wire. */
  fail(reason: Error): void {
    if (this.#settled) return;
    this.#reason = reason;
    this.#settle();
    this.#reject(reason);
    this.#abort?.(reason);
  }

  #settle(): void {
    this.#settled = true;
    this.#chunks = [];
    this.#deadlines.clear(this.#deadline);
    this.#signal?.removeEventListener("abort", this.#onAbort);
  }

  onConnect(abort: (reason?: Error) => void): void {
    this.#abort = abort;
    if (this.#reason !== undefined) abort(this.#reason);
  }

  onHeaders(status: number, rawHeaders: Buffer[] | string[] | null): boolean {
    if (status < 200) return true; // 1xx: the answer is still to come
    this.#status = status;
    const length = contentLength(rawHeaders);
    if (length !== undefined && length > this.#maxBytes) {
      this.fail(this.#failures.tooLarge(status));
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.#settled) return true;
    this.#size += chunk.length;
    if (this.#size > this.#maxBytes) {
      this.fail(this.#failures.tooLarge(this.#status));
      return true;
    }
    this.#chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (this.#settled) return;
    const chunks = this.#chunks;
    this.#settle();
    const text =
      chunks.length === 1
        ? chunks[0]!.toString("utf8")
        : Buffer.concat(chunks, this.#size).toString("utf8");
    this.#resolve({ status: this.#status, text });
  }

  onError(error: Error): void {
    if (this.#settled) return;
    this.#settle();
    this.#reject(error);
  }
}

/** The declared `content-length` of raw response headers (name, value, name, value...). */
function contentLength(raw: Buffer[] | string[] | null): number | undefined {
  if (raw === null) return undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 14 && name.toString().toLowerCase() === "content-length") {
      return Number(raw[i + 1]!.toString());
    }
  }
  return undefined;
}
