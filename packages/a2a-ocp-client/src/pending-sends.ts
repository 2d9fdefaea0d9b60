/**
 * The sends of a {@link HubClient} that wait for the hub's ack, each with its
 * deadline. One sweep fails the overdue ones with `hub_timeout`: a timer per
 * send cost an allocation and a timer-list insertion and removal for every
 * message (issue 18). The sweep runs only while sends wait and ticks every
 * quarter of the ack timeout (10 ms to 1 s), so a send fails at most that
 * much after its deadline.
 */
import { OcpError } from "@ocp/types";
import type { SendReceipt } from "./receipts.js";

export interface PendingSend {
  raw: string;
  /** Handed to a connection at least once. */
  sent: boolean;
  resent: boolean;
  /** When the send fails with `hub_timeout` (ms since the epoch) unless acknowledged first. */
  deadline: number;
  resolve: (receipt: SendReceipt) => void;
  reject: (error: OcpError) => void;
}

export class PendingSends {
  /** In send order; with one timeout per client, that is ascending deadline. */
  readonly #byId = new Map<string, PendingSend>();
  readonly #timeoutMs: number;
  #sweep: NodeJS.Timeout | undefined;

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
    const waiting = this.#byId.get(id);
    if (waiting !== undefined) {
      const { resolve: first, reject: firstReject } = waiting;
      waiting.resolve = (receipt) => {
        first(receipt);
        resolve(receipt);
      };
      waiting.reject = (error) => {
        firstReject(error);
        reject(error);
      };
      return undefined;
    }
    const deadline = Date.now() + this.#timeoutMs;
    const pending: PendingSend = { raw, sent: false, resent: false, deadline, resolve, reject };
    this.#byId.set(id, pending);
    this.#arm();
    return pending;
  }

  /** The send waiting for `id`, no longer waiting; undefined when none (timed out, or not ours). */
  take(id: string): PendingSend | undefined {
    const pending = this.#byId.get(id);
    if (pending !== undefined) this.#byId.delete(id);
    return pending;
  }

  /** Rejects every waiting send with `error`. */
  failAll(error: OcpError): void {
    this.#disarm();
    const waiting = [...this.#byId.values()];
    this.#byId.clear();
    for (const pending of waiting) pending.reject(error);
  }

  #arm(): void {
    if (this.#sweep !== undefined) return;
    const tick = Math.max(10, Math.min(1000, Math.floor(this.#timeoutMs / 4)));
    this.#sweep = setInterval(() => this.#expire(), tick);
    this.#sweep.unref();
  }

  #disarm(): void {
    if (this.#sweep !== undefined) clearInterval(this.#sweep);
    this.#sweep = undefined;
  }

  #expire(): void {
    const now = Date.now();
    for (const [id, pending] of this.#byId) {
      if (pending.deadline > now) break;
      this.#byId.delete(id);
      pending.reject(new OcpError("hub_timeout", `no ack for ${id} within ${this.#timeoutMs} ms`));
    }
    if (this.#byId.size === 0) this.#disarm();
  }
}
