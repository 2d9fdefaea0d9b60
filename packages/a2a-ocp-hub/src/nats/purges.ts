/**
 * Confirmed deliveries leave an agent's inbox stream in batches (issue 18).
 * A JetStream purge compacts the stream's first file block, so purging on
 * every confirmation (a client confirms every 64 deliveries) cost the NATS
 * server about a third of its CPU per message. Here a confirmation raises
 * the stream's confirmed floor at once — every read of this store skips what
 * lies at or below it — and the purge follows {@link NATS_PURGE_DELAY_MS}
 * after the first confirmation of a batch, at once when the floor moved
 * {@link NATS_PURGE_EVERY} sequences past that one, and when the store closes.
 *
 * What a deferred purge changes: until it ran, another hub reading the stream
 * for an agent that announces a `lastSeq` below what it confirmed (an agent
 * restarted without its `lastSeq`) replays those deliveries again, as it
 * replays every delivery received but not yet confirmed. Deliveries are at
 * least once across such a restart either way; an agent that resumes from its
 * `lastSeq` sees no difference.
 */
import { NATS_PURGE_DELAY_MS, NATS_PURGE_EVERY } from "./limits.js";

interface Floor {
  /** Highest confirmed sequence. */
  floor: number;
  /** Highest sequence purged (or being purged) by this entry. */
  purged: number;
  /** The floor when this entry's current batch began: a batch spans `every` sequences at most. */
  base: number;
  timer: NodeJS.Timeout | undefined;
}

export class ConfirmedFloors {
  readonly #purge: (stream: string, upTo: number) => Promise<void>;
  readonly #onError: (error: unknown) => void;
  readonly #every: number;
  readonly #delayMs: number;
  /** Streams with a confirmed floor not yet purged (an entry goes once its purge ran). */
  readonly #floors = new Map<string, Floor>();
  readonly #running = new Set<Promise<void>>();

  constructor(options: {
    /** Removes every message of `stream` up to and including `upTo`. */
    purge: (stream: string, upTo: number) => Promise<void>;
    onError?: (error: unknown) => void;
    every?: number;
    delayMs?: number;
  }) {
    this.#purge = options.purge;
    this.#onError = options.onError ?? (() => undefined);
    this.#every = options.every ?? NATS_PURGE_EVERY;
    this.#delayMs = options.delayMs ?? NATS_PURGE_DELAY_MS;
  }

  /** The highest sequence confirmed in `stream` and not yet purged; 0 when none. */
  floor(stream: string): number {
    return this.#floors.get(stream)?.floor ?? 0;
  }

  /** Streams whose purge is pending. */
  get pending(): number {
    return this.#floors.size;
  }

  /** Records that `stream` is confirmed up to `upTo` (never beyond its last sequence). */
  confirm(stream: string, upTo: number): void {
    if (!Number.isSafeInteger(upTo) || upTo < 1) return;
    let entry = this.#floors.get(stream);
    if (entry === undefined) {
      entry = { floor: 0, purged: 0, base: upTo, timer: undefined };
      this.#floors.set(stream, entry);
    }
    if (upTo <= entry.floor) return;
    entry.floor = upTo;
    if (entry.floor - entry.base >= this.#every) {
      this.#run(stream, entry);
      return;
    }
    if (entry.timer === undefined) {
      entry.timer = setTimeout(() => this.#run(stream, entry), this.#delayMs);
      entry.timer.unref();
    }
  }

  /** Purges every pending floor now; resolves once every purge started has ended. */
  async flush(): Promise<void> {
    for (const [stream, entry] of [...this.#floors]) this.#run(stream, entry);
    await Promise.all([...this.#running]);
  }

  #run(stream: string, entry: Floor): void {
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    entry.timer = undefined;
    const upTo = entry.floor;
    if (upTo <= entry.purged) return;
    entry.purged = upTo;
    entry.base = upTo;
    const running = this.#purge(stream, upTo).then(
      () => {
        // Done, and nothing confirmed meanwhile: the stream itself now starts after the floor.
        if (this.#floors.get(stream) === entry && entry.floor === upTo) {
          this.#floors.delete(stream);
        }
      },
      (error: unknown) => {
        // The floor still holds for this hub's reads; the next confirmation (or close) retries.
        if (entry.purged === upTo) entry.purged = 0;
        this.#onError(error);
      },
    );
    this.#running.add(running);
    running.finally(() => this.#running.delete(running));
  }
}
