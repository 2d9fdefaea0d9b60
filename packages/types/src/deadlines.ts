/**
 * One timer for many deadlines, not one per request: it is armed at the
 * earliest deadline, fires what is due and re-arms for the next. Requests
 * that share a timeout add later and later deadlines, so adding one rarely
 * re-arms it: a request costs a set insertion and deletion. Used by the
 * host for its guarded legs and by the HTTP client for its exchanges.
 */
export class Deadlines {
  readonly #pending = new Set<Deadline>();
  readonly #holdsProcess: boolean;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Number.POSITIVE_INFINITY;

  /**
   * `holdsProcess: false` lets the process exit while deadlines are pending
   * (where something else, such as a socket in use, holds it while needed).
   */
  constructor(options: { holdsProcess?: boolean } = {}) {
    this.#holdsProcess = options.holdsProcess !== false;
  }

  /** Calls `fire` once, `ms` from now, unless the returned deadline is cleared first. */
  add(ms: number, fire: () => void): Deadline {
    const deadline: Deadline = { at: performance.now() + ms, fire };
    this.#pending.add(deadline);
    if (deadline.at < this.#timerAt) this.#arm(deadline.at);
    return deadline;
  }

  clear(deadline: Deadline): void {
    this.#pending.delete(deadline);
    if (this.#pending.size === 0 && this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#timerAt = Number.POSITIVE_INFINITY;
    }
  }

  #arm(at: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => this.#sweep(), Math.max(1, Math.ceil(at - performance.now())));
    if (!this.#holdsProcess) (this.#timer as { unref?: () => void }).unref?.();
  }

  #sweep(): void {
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    const now = performance.now();
    const due: Deadline[] = [];
    let next = Number.POSITIVE_INFINITY;
    for (const deadline of this.#pending) {
      if (deadline.at <= now) due.push(deadline);
      else next = Math.min(next, deadline.at);
    }
    for (const deadline of due) this.#pending.delete(deadline);
    if (next !== Number.POSITIVE_INFINITY) this.#arm(next);
    for (const deadline of due) deadline.fire();
  }
}

export interface Deadline {
  /** When it fires, on the `performance.now()` clock. */
  readonly at: number;
  readonly fire: () => void;
}
