import { fail, messagingError, type Result } from "./errors.js";
import { REPLAY_WINDOW_MAX_ENTRIES } from "./limits.js";

/**
 * The replay window: the ids of accepted messages, each remembered until its
 * deadline (timestamp + ttl + clock skew), after which freshness alone
 * rejects a copy and the id can be forgotten.
 *
 * Memory is bounded by `maxEntries`. When the window is full of live ids,
 * the one with the earliest deadline is evicted and that deadline becomes a
 * floor: from then on a message whose deadline is not after the floor is
 * refused with `replay_window_saturated`, because the window can no longer
 * prove it unseen. Under pressure it fails closed; a replay never gets in.
 */
export class ReplayWindow {
  readonly maxEntries: number;
  readonly #deadlines = new Map<string, number>();
  /** Min-heap of [deadline, id], by deadline. */
  readonly #heap: Array<[number, string]> = [];
  #floor = Number.NEGATIVE_INFINITY;

  constructor(options: { maxEntries?: number } = {}) {
    const maxEntries = options.maxEntries ?? REPLAY_WINDOW_MAX_ENTRIES;
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
      throw messagingError("invalid_option", "maxEntries must be a positive integer", {
        details: { maxEntries },
      });
    }
    this.maxEntries = maxEntries;
  }

  /** How many ids are remembered. */
  get size(): number {
    return this.#deadlines.size;
  }

  /**
   * Whether a message with `id` and `deadlineMs` may be accepted at `nowMs`
   * (forgets expired ids first). Does not record it: call {@link record}
   * once the message is accepted.
   */
  check(
    id: string,
    deadlineMs: number,
    nowMs: number,
  ): Result<void, "replay_detected" | "replay_window_saturated"> {
    this.#expire(nowMs);
    if (this.#deadlines.has(id)) {
      return fail("replay_detected", `message ${id} was already accepted`, { details: { id } });
    }
    if (deadlineMs <= this.#floor) {
      return fail("replay_window_saturated", `replay window full; cannot prove ${id} unseen`, {
        details: { id, floor: this.#floor },
      });
    }
    return { ok: true, value: undefined };
  }

  /** Remembers `id` until `deadlineMs`. */
  record(id: string, deadlineMs: number, nowMs: number): void {
    this.#expire(nowMs);
    if (this.#deadlines.has(id)) return;
    while (this.#deadlines.size >= this.maxEntries) {
      const [deadline, evicted] = this.#pop();
      this.#deadlines.delete(evicted);
      this.#floor = Math.max(this.#floor, deadline);
    }
    this.#deadlines.set(id, deadlineMs);
    this.#push([deadlineMs, id]);
  }

  /** Check, then record when allowed. */
  admit(
    id: string,
    deadlineMs: number,
    nowMs: number,
  ): Result<void, "replay_detected" | "replay_window_saturated"> {
    const checked = this.check(id, deadlineMs, nowMs);
    if (checked.ok) this.record(id, deadlineMs, nowMs);
    return checked;
  }

  #expire(nowMs: number): void {
    while (this.#heap.length > 0 && this.#heap[0]![0] < nowMs) {
      const [, id] = this.#pop();
      this.#deadlines.delete(id);
    }
  }

  #push(entry: [number, string]): void {
    const heap = this.#heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]![0] <= heap[i]![0]) break;
      [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
      i = parent;
    }
  }

  #pop(): [number, string] {
    const heap = this.#heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < heap.length && heap[left]![0] < heap[smallest]![0]) smallest = left;
        if (right < heap.length && heap[right]![0] < heap[smallest]![0]) smallest = right;
        if (smallest === i) break;
        [heap[smallest], heap[i]] = [heap[i]!, heap[smallest]!];
        i = smallest;
      }
    }
    return top;
  }
}
