/**
 * One timer for many deadlines, not one per request: it is armed at the
 * earliest deadline, fires what is due and re-arms for the next. Requests
 * that share a timeout add later and later deadlines, so adding one rarely
 * re-arms it, and clearing the last one leaves the timer armed (it fires
 * into an empty sweep) instead of clearing it: one request after another
 * costs a set insertion and deletion, not a timer each. Used by the host for
 * its guarded legs, the HTTP client for its exchanges and the stdio
 * transport for its requests.
 */
export class Deadlines {
  readonly #pending = new Set<Deadline>();
  readonly #holdsProcess: boolean;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Number.POSITIVE_INFINITY;

  /**
   * By default a pending deadline holds the process (Node) and an idle timer
   * does not: the process can exit once nothing is pending. `holdsProcess:
   * false` lets it exit while deadlines are pending too (where something
   * else, such as a socket in use, holds it while needed).
   */
  constructor(options: { holdsProcess?: boolean } = {}) {
    this.#holdsProcess = options.holdsProcess !== false;
  }

  /** Calls `fire` once, `ms` from now, unless the returned deadline is cleared first. */
  add(ms: number, fire: () => void): Deadline {
    const deadline: Deadline = { at: performance.now() + ms, fire };
    const wasIdle = this.#pending.size === 0;
    this.#pending.add(deadline);
    if (deadline.at < this.#timerAt) this.#arm(deadline.at);
    else if (wasIdle && this.#holdsProcess) this.#hold(true);
    return deadline;
  }

  /** Forgets `deadline` (fired or not): it will not fire. */
  clear(deadline: Deadline): void {
    if (!this.#pending.delete(deadline)) return;
    if (this.#pending.size === 0 && this.#holdsProcess) this.#hold(false);
  }

  #hold(holds: boolean): void {
    const timer = this.#timer as { ref?: () => void; unref?: () => void } | undefined;
    if (holds) timer?.ref?.();
    else timer?.unref?.();
  }

  #arm(at: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => this.#sweep(), Math.max(1, Math.ceil(at - performance.now())));
    if (!this.#holdsProcess) this.#hold(false);
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
