/**
 * Heartbeats and dead-peer detection, each side on its own. Every
 * `intervalMs` the heartbeat pings; after a ping the peer has `timeoutMs` to
 * show any sign of life (a pong, a ping, any frame — `Heartbeat.touch`),
 * or `onTimeout` is called once. Timers are unref'd: a heartbeat never keeps
 * a process alive on its own.
 */

export interface HeartbeatOptions {
  intervalMs: number;
  timeoutMs: number;
  /** Sends a ping (a WebSocket ping frame). */
  ping: () => void;
  /** Called once when the peer showed no life within `timeoutMs` of a ping. */
  onTimeout: () => void;
}

export class Heartbeat {
  readonly #options: HeartbeatOptions;
  #interval: NodeJS.Timeout | undefined;
  #deadline: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(options: HeartbeatOptions) {
    this.#options = options;
  }

  /** Starts pinging. Idempotent; a stopped heartbeat does not restart. */
  start(): void {
    if (this.#stopped || this.#interval !== undefined) return;
    this.#interval = setInterval(() => this.#tick(), this.#options.intervalMs);
    this.#interval.unref();
  }

  /** Records a sign of life: the pending deadline, if any, is cleared. */
  touch(): void {
    if (this.#deadline !== undefined) {
      clearTimeout(this.#deadline);
      this.#deadline = undefined;
    }
  }

  /** Stops for good. */
  stop(): void {
    this.#stopped = true;
    if (this.#interval !== undefined) clearInterval(this.#interval);
    this.#interval = undefined;
    this.touch();
  }

  /** Whether a ping is waiting for a sign of life. */
  get awaiting(): boolean {
    return this.#deadline !== undefined;
  }

  #tick(): void {
    if (this.#stopped) return;
    if (this.#deadline === undefined) {
      this.#deadline = setTimeout(() => {
        this.#deadline = undefined;
        if (this.#stopped) return;
        this.stop();
        this.#options.onTimeout();
      }, this.#options.timeoutMs);
      this.#deadline.unref();
    }
    this.#options.ping();
  }
}
