/** A small typed event emitter (portable: no `node:events`). */
type Listener = (...args: unknown[]) => void;
export class Emitter<Events extends Record<string, unknown[]>> {
  readonly #listeners = new Map<keyof Events, Set<Listener>>();

  on<K extends keyof Events>(event: K, listener: (...args: Events[K]) => void): () => void {
    let set = this.#listeners.get(event);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener as unknown as Listener);
    return () => set?.delete(listener as unknown as Listener);
  }

  /** Resolves with the first emission that passes `test`. */
  once<K extends keyof Events>(
    event: K,
    test: (...args: Events[K]) => boolean = () => true,
  ): Promise<Events[K]> {
    return new Promise((resolve) => {
      const off = this.on(event, (...args) => {
        if (!test(...args)) return;
        off();
        resolve(args);
      });
    });
  }

  protected emit<K extends keyof Events>(event: K, ...args: Events[K]): void {
    for (const listener of [...(this.#listeners.get(event) ?? [])]) {
      listener(...(args as unknown[]));
    }
  }
}

/** Pending replies keyed by correlation (sync id, query id): each waits with a bounded timeout. */
export class Waiters<T> {
  readonly #pending = new Map<
    string,
    { resolve: (v: T) => void; reject: (e: unknown) => void; timer: ReturnType<typeof setTimeout> }
  >();

  wait(key: string, timeoutMs: number, onTimeout: () => unknown): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(key);
        reject(onTimeout());
      }, timeoutMs);
      this.#pending.set(key, { resolve, reject, timer });
    });
  }

  resolve(key: string, value: T): boolean {
    const entry = this.#pending.get(key);
    if (entry === undefined) return false;
    clearTimeout(entry.timer);
    this.#pending.delete(key);
    entry.resolve(value);
    return true;
  }

  reject(key: string, error: unknown): void {
    const entry = this.#pending.get(key);
    if (entry === undefined) return;
    clearTimeout(entry.timer);
    this.#pending.delete(key);
    entry.reject(error);
  }

  rejectAll(error: unknown): void {
    for (const key of [...this.#pending.keys()]) this.reject(key, error);
  }
}
