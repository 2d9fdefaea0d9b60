import type { DecodeResult } from "@ocp/types";

/** What a provider did next, as a session saw it. Never a throw. */
export type Incoming =
  | {
      readonly kind: "message";
      /** The exact text the provider sent: one NDJSON line, or one HTTP body. */
      readonly raw: string;
      readonly decoded: DecodeResult;
      /** HTTP status of the response that carried it. */
      readonly status?: number;
    }
  /** The provider process ended (stdio), or `shutdown()` settled (in-process). */
  | {
      readonly kind: "exit";
      readonly code: number | null;
      readonly signal: string | null;
      readonly stderr: string;
    }
  | { readonly kind: "timeout"; readonly waitedMs: number }
  /** The transport failed: an HTTP connection refused or reset, a body over the limit. */
  | { readonly kind: "failure"; readonly message: string };

/** One message the provider sent, kept for the schema check. */
export interface Recorded {
  /** Which connection: `main`, `version-mismatch`, `malformed`. */
  readonly session: string;
  /** What the suite had just sent when the message arrived. */
  readonly after: string;
  readonly raw: string;
}

/** How a provider ended when asked to shut down (R2). */
export type ShutdownOutcome =
  | { readonly kind: "exited"; readonly code: number | null; readonly signal: string | null }
  | { readonly kind: "already-gone"; readonly code: number | null; readonly signal: string | null }
  | { readonly kind: "answered"; readonly status: number }
  | { readonly kind: "connection-closed"; readonly message: string }
  | { readonly kind: "rejected"; readonly message: string }
  | {
      readonly kind: "ignored";
      readonly waitedMs: number;
      /** What finally ended it: closing its stdin, or a SIGKILL to its group; or nothing (HTTP). */
      readonly after: "exited-on-eof" | "killed" | "still-running" | "timeout";
    };

/**
 * One connection to the provider under test, at the message level: the
 * suite sends envelopes (or raw lines) and reads back exactly what came.
 */
export interface Session {
  readonly label: string;
  /** Sends one envelope, serialised as JSON, or one raw line of text (stdio only). */
  send(message: Record<string, unknown> | string, context: string): void;
  /** The next thing the provider did, within `timeoutMs`. */
  next(timeoutMs: number): Promise<Incoming>;
  /** Asks the provider to shut down and watches it go, within `timeoutMs`. */
  shutdown(timeoutMs: number): Promise<ShutdownOutcome>;
  /** Ends the connection whatever its state (kills a stdio provider's process group). */
  dispose(): Promise<void>;
}

/** A FIFO of incoming items with bounded waits. */
export class Inbox {
  readonly #items: Incoming[] = [];
  readonly #waiters: ((item: Incoming) => void)[] = [];
  #final: Incoming | undefined;

  push(item: Incoming): void {
    const waiter = this.#waiters.shift();
    if (waiter !== undefined) waiter(item);
    else this.#items.push(item);
  }

  /** An item every later `next` returns once the queue is drained (the provider is gone). */
  end(item: Incoming): void {
    if (this.#final !== undefined) return;
    this.#final = item;
    for (const waiter of this.#waiters.splice(0)) waiter(item);
  }

  get ended(): Incoming | undefined {
    return this.#final;
  }

  next(timeoutMs: number): Promise<Incoming> {
    const item = this.#items.shift();
    if (item !== undefined) return Promise.resolve(item);
    if (this.#final !== undefined) return Promise.resolve(this.#final);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const index = this.#waiters.indexOf(settle);
        if (index !== -1) this.#waiters.splice(index, 1);
        resolve({ kind: "timeout", waitedMs: timeoutMs });
      }, timeoutMs);
      const settle = (value: Incoming) => {
        clearTimeout(timer);
        resolve(value);
      };
      this.#waiters.push(settle);
    });
  }
}
