/**
 * Where the client resumes: the last durable sequence number it may confirm
 * (`ocp.hub.delivered`) and announce after a reconnect (`lastSeq`). Every
 * stored delivery up to it has been handled. Deliveries normally arrive in
 * sequence order and move it one by one; a replay page the hub sends in
 * priority order (`ocp.hub.batch {count, lastSeq}`, which this client asks
 * for with `ocpPriorityOrder`) moves it only once all `count` deliveries of
 * the page were handled, so a connection lost mid-page resumes before the
 * page and nothing of it is skipped (what arrives twice is dropped by id).
 */
import { encodeHubControl, HUB_TYPES } from "@ocp/a2a-ocp-messaging/internal";
import { CLIENT_CONFIRM_EVERY, CLIENT_CONFIRM_INTERVAL_MS } from "./limits.js";

export class ResumePoint {
  #lastSeq: number;
  #confirmedSeq: number;
  #timer: NodeJS.Timeout | undefined;
  #batch: { remaining: number; lastSeq: number } | undefined;
  readonly #send: (frame: string) => string;
  readonly #moved: (seq: number) => void;

  /** `send` a confirmation frame (its status); `moved` the new resume point. */
  constructor(lastSeq: number, send: (frame: string) => string, moved: (seq: number) => void) {
    this.#lastSeq = lastSeq;
    this.#confirmedSeq = lastSeq;
    this.#send = send;
    this.#moved = moved;
  }

  get lastSeq(): number {
    return this.#lastSeq;
  }

  /** Whether delivery `seq` was handled already (on an earlier connection or page). */
  had(seq: number): boolean {
    return seq <= this.#lastSeq;
  }

  /** The next `count` deliveries are a priority-ordered page ending at `lastSeq`. */
  batch(count: number, lastSeq: number): void {
    this.#batch = lastSeq > this.#lastSeq ? { remaining: count, lastSeq } : undefined;
  }

  /** A new connection: a page the old one was sending is over (the hub sends it again). */
  reset(): void {
    this.#batch = undefined;
  }

  /** Delivery `seq` was handled. */
  handled(seq: number): void {
    const batch = this.#batch;
    if (batch === undefined) {
      this.#move(seq);
      return;
    }
    batch.remaining -= 1;
    if (batch.remaining > 0) return;
    this.#batch = undefined;
    this.#move(batch.lastSeq);
  }

  /** Sends the confirmation now, when there is something new to confirm. */
  confirm(): void {
    this.stop();
    if (this.#lastSeq <= this.#confirmedSeq) return;
    const status = this.#send(encodeHubControl(HUB_TYPES.DELIVERED, { seq: this.#lastSeq }));
    if (status !== "closed" && status !== "overflow") this.#confirmedSeq = this.#lastSeq;
  }

  /** Stops the confirmation timer. */
  stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #move(seq: number): void {
    if (seq <= this.#lastSeq) return;
    this.#lastSeq = seq;
    this.#moved(seq);
    if (this.#lastSeq - this.#confirmedSeq >= CLIENT_CONFIRM_EVERY) {
      this.confirm();
      return;
    }
    if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.confirm(), CLIENT_CONFIRM_INTERVAL_MS);
      this.#timer.unref();
    }
  }
}
