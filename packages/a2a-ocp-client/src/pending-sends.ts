/**
 * The sends of a {@link HubClient} that wait for the hub's ack. Their
 * deadlines share one timer ({@link Deadlines} of `@ocp/types`, as the host's
 * legs and the stdio and HTTP transports' requests do) instead of a timer per
 * send (issue 18); an overdue send fails with `hub_timeout`.
 */
import type { OcpError } from "@ocp/types";
import { type Deadline, Deadlines } from "@ocp/types/internal";
import { clientError } from "./errors.js";
import type { SendReceipt } from "./receipts.js";

export interface PendingSend {
  raw: string;
  /** Handed to a connection at least once. */
  sent: boolean;
  resent: boolean;
  resolve: (receipt: SendReceipt) => void;
  reject: (error: OcpError) => void;
}

interface Waiting extends PendingSend {
  deadline: Deadline;
}

export class PendingSends {
  readonly #byId = new Map<string, Waiting>();
  readonly #timeoutMs: number;
  /** The connection holds the process while it is open; the deadlines do not. */
  readonly #deadlines = new Deadlines({ holdsProcess: false });

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  get size(): number {
    return this.#byId.size;
  }

  values(): IterableIterator<PendingSend> {
    return this.#byId.values();
  }

  /**
   * Records a send of `raw` (not yet handed to a connection); it times out
   * from now. A send of an id that already waits joins it instead: it settles
   * with that send's outcome, and nothing is recorded or to be sent again
   * (undefined is returned).
   */
  add(
    id: string,
    raw: string,
    resolve: PendingSend["resolve"],
    reject: PendingSend["reject"],
  ): PendingSend | undefined {
    const joined = this.#byId.get(id);
    if (joined !== undefined) {
      const { resolve: first, reject: firstReject } = joined;
      joined.resolve = (receipt) => {
        first(receipt);
        resolve(receipt);
      };
      joined.reject = (error) => {
        firstReject(error);
        reject(error);
      };
      return undefined;
    }
    const deadline = this.#deadlines.add(this.#timeoutMs, () => {
      if (this.#byId.get(id) !== waiting) return;
      this.#byId.delete(id);
      waiting.reject(clientError("hub_timeout", `no ack for ${id} within ${this.#timeoutMs} ms`));
    });
    const waiting: Waiting = { raw, sent: false, resent: false, deadline, resolve, reject };
    this.#byId.set(id, waiting);
    return waiting;
  }

  /** The send waiting for `id`, no longer waiting; undefined when none (timed out, or not ours). */
  take(id: string): PendingSend | undefined {
    const waiting = this.#byId.get(id);
    if (waiting === undefined) return undefined;
    this.#byId.delete(id);
    this.#deadlines.clear(waiting.deadline);
    return waiting;
  }

  /** Rejects every waiting send with `error`. */
  failAll(error: OcpError): void {
    const waiting = [...this.#byId.values()];
    this.#byId.clear();
    for (const pending of waiting) {
      this.#deadlines.clear(pending.deadline);
      pending.reject(error);
    }
  }
}
