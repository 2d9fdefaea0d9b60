import { fail, messagingError, type Result } from "./errors.js";
import {
  REPLAY_FILTER_BYTES,
  REPLAY_FILTER_MAX_BYTES,
  REPLAY_FILTER_SPAN_MS,
  REPLAY_WINDOW_MAX_ENTRIES,
} from "./limits.js";
import { EvictedIds } from "./replay-filter.js";

/**
 * The replay window: the ids of accepted messages, each remembered until its
 * deadline (timestamp + ttl + clock skew), after which freshness alone
 * rejects a copy and the id can be forgotten.
 *
 * Memory is bounded by `maxEntries` exact ids plus `filterBytes` of Bloom
 * filters. When the window is full of live ids, the one with the earliest
 * deadline is evicted into the Bloom filter of its deadline's hour (a replay
 * carries the same signed timestamp and ttl, so the same deadline, and is
 * looked up in that one filter). A message whose id the filter may hold is
 * refused with `replay_window_saturated` (the window cannot prove it
 * unseen): every replay of an evicted id, and about 1% of fresh messages
 * while the filter of their hour is loaded to its design capacity. Past that
 * capacity, or when no filter can be allocated within `filterBytes`, the
 * window falls back to a floor: a message whose deadline is not after the
 * floor (or inside an overflowed hour) is refused the same way. Under
 * pressure it fails closed; a replay never gets in.
 */
export class ReplayWindow {
  readonly maxEntries: number;
  readonly #deadlines = new Map<string, number>();
  /** Min-heap of [deadline, id], by deadline. */
  readonly #heap: Array<[number, string]> = [];
  #floor = Number.NEGATIVE_INFINITY;
  readonly #evicted: EvictedIds;

  constructor(
    options: {
      maxEntries?: number;
      /** Bytes of Bloom filters for evicted ids; 0 for none (the floor alone). */
      filterBytes?: number;
      /** Bytes of one filter (a power of two, at least 64). */
      bytesPerFilter?: number;
      /** The span of deadlines one filter covers (ms). */
      filterSpanMs?: number;
    } = {},
  ) {
    const maxEntries = options.maxEntries ?? REPLAY_WINDOW_MAX_ENTRIES;
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
      throw messagingError("invalid_option", "maxEntries must be a positive integer", {
        details: { maxEntries },
      });
    }
    this.maxEntries = maxEntries;
    try {
      this.#evicted = new EvictedIds(
        options.filterBytes ?? REPLAY_FILTER_MAX_BYTES,
        options.bytesPerFilter ?? REPLAY_FILTER_BYTES,
        options.filterSpanMs ?? REPLAY_FILTER_SPAN_MS,
      );
    } catch (cause) {
      throw messagingError("invalid_option", (cause as Error).message, { cause });
    }
  }

  /** Bytes the Bloom filters of evicted ids hold now. */
  get filterBytes(): number {
    return this.#evicted.bytes;
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
    if (deadlineMs <= this.#floor || this.#evicted.mayHold(id, deadlineMs)) {
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
      if (this.#deadlines.get(evicted) !== deadline) continue; // forgotten, or recorded again
      this.#deadlines.delete(evicted);
      if (!this.#evicted.add(evicted, deadline)) this.#floor = Math.max(this.#floor, deadline);
    }
    this.#deadlines.set(id, deadlineMs);
    this.#push([deadlineMs, id]);
  }

  /**
   * Forgets an accepted id whose message was then not kept (a hub whose store
   * failed to commit it refuses it `store_failed`): a resend of the same
   * message is then not a replay but the first copy that is kept. Only for
   * ids that were never acknowledged; a no-op for an unknown id.
   */
  forget(id: string): void {
    this.#deadlines.delete(id); // its heap entry is skipped when it surfaces
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
    this.#evicted.expire(nowMs);
    while (this.#heap.length > 0 && this.#heap[0]![0] < nowMs) {
      const [deadline, id] = this.#pop();
      if (this.#deadlines.get(id) === deadline) this.#deadlines.delete(id);
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
