/**
 * One timer for the deadlines of every leg in flight, not one per leg: it is
 * armed at the earliest deadline, fires what is due and re-arms for the next.
 * Legs of one fan-out share a timeout, so adding one rarely re-arms it.
 */
export class Deadlines {
  readonly #pending = new Set<Deadline>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Number.POSITIVE_INFINITY;

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
  readonly at: number;
  readonly fire: () => void;
}

/** The deadlines of every leg of this process's hosts. */
export const LEG_DEADLINES = new Deadlines();
