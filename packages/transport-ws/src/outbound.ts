/**
 * The outbound side of one connection: a bounded queue in front of a `ws`
 * socket, with backpressure accounting.
 *
 * A message is handed to the socket while nothing waits before it and the
 * socket's `bufferedAmount` is below `highWaterBytes`; otherwise it waits in
 * the queue, drained as the socket flushes. Queue plus `bufferedAmount` above
 * `highWaterBytes` reports backpressure, back at `lowWaterBytes` reports
 * drain. A message that would take them above `maxOutboundBufferBytes` is not
 * taken: `overflow` is reported and the owner closes the connection (4003),
 * so the bytes held never exceed the limit.
 */
import type { WebSocket } from "ws";
import { type WsError, wsError } from "./errors.js";
import { byteLengthOf } from "./framing.js";
import type { Limits } from "./limits.js";

/** What the owning connection is told. */
export interface OutboundHooks {
  backpressure(): void;
  drain(): void;
  /** A message was refused for the limit; nothing was queued. */
  overflow(error: WsError): void;
  /** The queue was pumped (it may now be empty). */
  pumped(): void;
}

/** The part of the `net.Socket` under a `ws` socket that coalesces writes. */
interface Corkable {
  cork(): void;
  uncork(): void;
}

interface Pending {
  data: string | Buffer;
  binary: boolean;
  bytes: number;
}

export class Outbound {
  readonly #ws: WebSocket;
  readonly #limits: Readonly<Limits>;
  readonly #hooks: OutboundHooks;
  #queue: Pending[] = [];
  #head = 0;
  #queuedBytes = 0;
  #backpressured = false;
  #stopped = false;
  #peak = 0;
  #bytesOut = 0;
  /** The socket is corked until the end of this tick (see {@link Outbound.#cork}). */
  #corked = false;

  constructor(ws: WebSocket, limits: Readonly<Limits>, hooks: OutboundHooks) {
    this.#ws = ws;
    this.#limits = limits;
    this.#hooks = hooks;
  }

  get queuedBytes(): number {
    return this.#queuedBytes;
  }

  get queuedMessages(): number {
    return this.#queue.length - this.#head;
  }

  /** Whether no message waits in the queue. */
  get empty(): boolean {
    return this.#head === this.#queue.length;
  }

  get backpressured(): boolean {
    return this.#backpressured;
  }

  /** Highest queue + `bufferedAmount` ever observed. */
  get peak(): number {
    return this.#peak;
  }

  /** Bytes handed to the socket so far. */
  get bytesOut(): number {
    return this.#bytesOut;
  }

  /**
   * Takes one message (a text frame, or a binary frame when `binary`).
   * Throws `payload_too_large` above `maxPayloadBytes`.
   */
  enqueue(data: string | Buffer, binary: boolean): "sent" | "queued" | "overflow" {
    const bytes = byteLengthOf(data);
    const limits = this.#limits;
    if (bytes > limits.maxPayloadBytes) {
      throw wsError(
        "payload_too_large",
        `message of ${bytes} bytes exceeds maxPayloadBytes (${limits.maxPayloadBytes})`,
        { details: { bytes, limit: limits.maxPayloadBytes } },
      );
    }
    const buffered = this.#ws.bufferedAmount;
    if (this.#queuedBytes + buffered + bytes > limits.maxOutboundBufferBytes) {
      this.#hooks.overflow(
        wsError(
          "slow_consumer",
          `outbound buffer would exceed ${limits.maxOutboundBufferBytes} bytes`,
          {
            details: {
              queuedBytes: this.#queuedBytes,
              bufferedAmount: buffered,
              bytes,
              limit: limits.maxOutboundBufferBytes,
            },
          },
        ),
      );
      return "overflow";
    }
    let status: "sent" | "queued";
    if (this.empty && buffered < limits.highWaterBytes) {
      this.#write(data, binary, bytes);
      status = "sent";
    } else {
      this.#queue.push({ data, binary, bytes });
      this.#queuedBytes += bytes;
      status = "queued";
    }
    const outbound = this.#queuedBytes + this.#ws.bufferedAmount;
    if (outbound > this.#peak) this.#peak = outbound;
    if (!this.#backpressured && outbound > limits.highWaterBytes) {
      this.#backpressured = true;
      this.#hooks.backpressure();
    }
    return status;
  }

  /** Drops every queued message. */
  clear(): void {
    this.#queue = [];
    this.#head = 0;
    this.#queuedBytes = 0;
  }

  /** Drops the queue and ignores later write callbacks (the socket closed). */
  stop(): void {
    this.#stopped = true;
    this.clear();
  }

  /**
   * Hands one message to the socket. The write callback, which pumps the
   * queue and reports drain, is only attached when the write may not
   * complete at once: when the socket already holds bytes, or the message is
   * at least `lowWaterBytes` long. Whenever the queue holds messages the
   * socket holds at least `highWaterBytes`, of which at most the first write
   * of the busy period (under `lowWaterBytes`) lacks a callback, so a later
   * callback always comes to drain the queue. Sparing the callback on the
   * common path keeps a broadcast close to a raw `ws.send`.
   */
  #write(data: string | Buffer, binary: boolean, bytes: number): void {
    this.#bytesOut += bytes;
    this.#cork();
    if (this.#ws.bufferedAmount > 0 || bytes >= this.#limits.lowWaterBytes) {
      this.#ws.send(data, { binary }, this.#onWritten);
    } else {
      this.#ws.send(data, { binary });
    }
  }

  /**
   * Corks the socket until the current tick's synchronous work and
   * microtasks are done, so that every frame written meanwhile (a batch of
   * acks, the deliveries of one NATS read, a producer's window of sends)
   * leaves in one `writev` instead of one system call per frame. The bytes
   * are counted in `bufferedAmount` meanwhile, so backpressure still sees them.
   */
  #cork(): void {
    if (this.#corked) return;
    const socket = (this.#ws as unknown as { _socket?: Partial<Corkable> })._socket;
    if (typeof socket?.cork !== "function" || typeof socket.uncork !== "function") return;
    const corkable = socket as Corkable;
    corkable.cork();
    this.#corked = true;
    process.nextTick(() => {
      this.#corked = false;
      corkable.uncork();
    });
  }

  readonly #onWritten = (error?: Error | null): void => {
    if (error != null || this.#stopped) return;
    this.#pump();
  };

  #pump(): void {
    const limits = this.#limits;
    while (!this.empty && this.#ws.bufferedAmount < limits.highWaterBytes) {
      const next = this.#queue[this.#head]!;
      this.#head += 1;
      this.#queuedBytes -= next.bytes;
      this.#write(next.data, next.binary, next.bytes);
    }
    if (this.empty) {
      this.#queue = [];
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    if (
      this.#backpressured &&
      this.#queuedBytes + this.#ws.bufferedAmount <= limits.lowWaterBytes
    ) {
      this.#backpressured = false;
      this.#hooks.drain();
    }
    this.#hooks.pumped();
  }
}
