/**
 * One WebSocket connection, either side: inbound frames become raw message
 * texts (never re-serialised), outbound messages go through a bounded queue
 * with backpressure, the peer is watched by a heartbeat, and every end of the
 * connection is reported once with a meaningful close code.
 *
 * Outbound accounting: a message is handed to the socket while the socket's
 * `bufferedAmount` is below `highWaterBytes` and nothing waits before it;
 * otherwise it waits in the connection's own queue, drained as the socket
 * flushes. Queue plus `bufferedAmount` above `highWaterBytes` reports
 * `backpressured`; a send that would take them above `maxOutboundBufferBytes`
 * is refused, the queue dropped, and the connection closed with 4003.
 */
import { EventEmitter } from "node:events";
import type { RawData, WebSocket } from "ws";
import { CLOSE_CODES, CONTROL_TYPES, closeReason } from "./constants.js";
import { type Classified, classify, encodeControl } from "./control.js";
import { type WsError, wsError } from "./errors.js";
import { byteLengthOf, decodeRecords, encodeRecords, recordText } from "./framing.js";
import { Heartbeat } from "./heartbeat.js";
import type { Limits } from "./limits.js";

/** What became of a message handed to `send` or `sendBatch`. */
export type SendStatus =
  /** Handed to the socket. */
  | "sent"
  /** Held in the connection's queue (check `backpressured`, wait for `drain`). */
  | "queued"
  /** Dropped: the connection is not open (handshake, closing or closed). */
  | "closed"
  /** Dropped: it would exceed `maxOutboundBufferBytes`; the connection is closing with 4003. */
  | "overflow";

export type ConnectionState = "handshake" | "open" | "closing" | "closed";

export interface MessageMeta {
  /** Whether the message arrived as a length-prefixed record of a binary frame (else a text frame). */
  binary: boolean;
}

export interface DisconnectNotice {
  code: number;
  reason: string;
}

/** How a connection ended; reported once, by the `close` event and `closed`. */
export interface CloseInfo {
  /** The close code: the one this side closed with, or the one the peer sent. */
  code: number;
  reason: string;
  /** Which side ended the connection. */
  initiator: "local" | "remote";
  /** The disconnect notice the peer sent before closing, if it did. */
  notice?: DisconnectNotice;
  /** The failure behind the close, if there was one. */
  error?: WsError;
}

export interface ConnectionStats {
  state: ConnectionState;
  /** Bytes waiting in the connection's own queue. */
  queuedBytes: number;
  /** Messages waiting in the connection's own queue. */
  queuedMessages: number;
  /** Bytes the socket holds that are not yet written out. */
  bufferedAmount: number;
  /** `queuedBytes + bufferedAmount`: what this connection holds on its way out. */
  outboundBytes: number;
  /** Highest `outboundBytes` ever observed. Never exceeds `maxOutboundBufferBytes`. */
  peakOutboundBytes: number;
  backpressured: boolean;
  messagesIn: number;
  messagesOut: number;
  bytesIn: number;
  bytesOut: number;
}

export interface ConnectionEvents {
  /** An application message, as the exact text that arrived. */
  message: [raw: string, meta: MessageMeta];
  /** Outbound bytes rose above `highWaterBytes`. */
  backpressure: [];
  /** Outbound bytes fell to `lowWaterBytes` after `backpressure`. */
  drain: [];
  /** The peer sent a graceful disconnect notice; its close follows. */
  disconnecting: [notice: DisconnectNotice];
  /** The connection ended. */
  close: [info: CloseInfo];
}

/** @internal Receives every inbound message until the connection is open. */
export type HandshakeHandler = (raw: string, classified: Classified, meta: MessageMeta) => void;

interface Outbound {
  data: string | Buffer;
  binary: boolean;
  bytes: number;
}

let counter = 0;

/** Whether `code` may be sent in a close frame (RFC 6455 §7.4). */
export function isSendableCloseCode(code: number): boolean {
  return (
    Number.isInteger(code) &&
    ((code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) ||
      (code >= 3000 && code <= 4999))
  );
}

const WS_ERROR_CODES: Record<string, WsError["code"]> = {
  WS_ERR_UNSUPPORTED_MESSAGE_LENGTH: "payload_too_large",
  WS_ERR_INVALID_UTF8: "invalid_utf8",
};

export class Connection extends EventEmitter<ConnectionEvents> {
  /** Unique within the process. */
  readonly id: string;
  readonly role: "server" | "client";
  readonly limits: Readonly<Limits>;
  /** The peer's address, when known. */
  readonly remoteAddress: string | undefined;
  /** Resolves once, when the connection has ended. */
  readonly closed: Promise<CloseInfo>;

  readonly #ws: WebSocket;
  readonly #heartbeat: Heartbeat;
  #state: ConnectionState = "handshake";
  #agentId: string | undefined;
  #handshake: HandshakeHandler | undefined;
  #queue: Outbound[] = [];
  #head = 0;
  #queuedBytes = 0;
  #backpressured = false;
  #pendingClose: { code: number; reason: string } | undefined;
  #local: { code: number; reason: string; error?: WsError } | undefined;
  #notice: DisconnectNotice | undefined;
  #socketError: WsError | undefined;
  #closeTimer: NodeJS.Timeout | undefined;
  #resolveClosed!: (info: CloseInfo) => void;
  #peak = 0;
  #messagesIn = 0;
  #messagesOut = 0;
  #bytesIn = 0;
  #bytesOut = 0;

  constructor(
    ws: WebSocket,
    options: { role: "server" | "client"; limits: Limits; remoteAddress?: string },
  ) {
    super();
    counter += 1;
    this.id = `${options.role}-${process.pid}-${counter}`;
    this.role = options.role;
    this.limits = options.limits;
    this.remoteAddress = options.remoteAddress;
    this.#ws = ws;
    this.closed = new Promise((resolve) => {
      this.#resolveClosed = resolve;
    });
    this.#heartbeat = new Heartbeat({
      intervalMs: options.limits.heartbeatIntervalMs,
      timeoutMs: options.limits.heartbeatTimeoutMs,
      ping: () => {
        try {
          ws.ping();
        } catch {
          // The socket is closing; its close event ends the connection.
        }
      },
      onTimeout: () =>
        this.abort(
          CLOSE_CODES.HEARTBEAT_TIMEOUT,
          "heartbeat timeout",
          wsError(
            "heartbeat_timeout",
            `no sign of life within ${options.limits.heartbeatTimeoutMs} ms of a ping`,
          ),
        ),
    });
    ws.on("message", (data, isBinary) => this.#onFrame(data, isBinary));
    ws.on("pong", () => this.#heartbeat.touch());
    ws.on("ping", () => this.#heartbeat.touch());
    ws.on("error", (error: Error & { code?: string }) => this.#onSocketError(error));
    ws.on("close", (code, reason) => this.#onClose(code, reason.toString("utf8")));
    this.#heartbeat.start();
  }

  get state(): ConnectionState {
    return this.#state;
  }

  /** The agent id `authenticate` returned (server side) or the server confirmed (client side). */
  get agentId(): string | undefined {
    return this.#agentId;
  }

  /** Whether outbound bytes are above `highWaterBytes` (since the last `drain`). */
  get backpressured(): boolean {
    return this.#backpressured;
  }

  /** The negotiated subprotocol (always `a2a-ocp-v1` once open). */
  get protocol(): string {
    return this.#ws.protocol;
  }

  /**
   * Sends one message as a text frame: a string as its UTF-8, a Buffer as the
   * bytes it holds (so the same bytes can go to many connections without
   * re-encoding). Throws `payload_too_large` above `maxPayloadBytes`.
   */
  send(message: string | Buffer): SendStatus {
    if (this.#state !== "open") return "closed";
    return this.#enqueue(message, false);
  }

  /**
   * Sends messages as binary frames of length-prefixed records (§6.3), as few
   * frames as `maxPayloadBytes` and `maxBatchRecords` allow. Returns the status
   * of the last frame (`overflow` or `closed` as soon as one frame is dropped).
   */
  sendBatch(messages: readonly (string | Buffer)[]): SendStatus {
    if (this.#state !== "open") return "closed";
    const frames = encodeRecords(messages, this.limits);
    let status: SendStatus = "sent";
    for (const frame of frames) {
      status = this.#enqueue(frame, true);
      if (status === "overflow" || status === "closed") return status;
    }
    return status;
  }

  /**
   * Ends the connection gracefully: when open, sends a disconnect notice
   * after everything already queued, then closes with `code` once the queue is
   * flushed. The socket is destroyed if that takes longer than `closeTimeoutMs`.
   */
  close(code: number = CLOSE_CODES.NORMAL, reason = ""): void {
    if (!isSendableCloseCode(code)) throw new RangeError(`${code} is not a valid close code`);
    if (this.#state === "closing" || this.#state === "closed") return;
    const wasOpen = this.#state === "open";
    this.#state = "closing";
    this.#local = { code, reason };
    this.#pendingClose = { code, reason };
    this.#armCloseTimer();
    if (wasOpen) {
      this.#enqueue(encodeControl(CONTROL_TYPES.DISCONNECT, { code, reason }), false, true);
    }
    this.#flushClose();
  }

  /**
   * Ends the connection now: drops the queue, sends no notice, closes with
   * `code`, and destroys the socket if the peer does not answer the close
   * within `closeTimeoutMs`.
   */
  abort(code: number, reason: string, error?: WsError): void {
    if (!isSendableCloseCode(code)) throw new RangeError(`${code} is not a valid close code`);
    if (this.#state === "closed") return;
    if (this.#state === "closing" && this.#pendingClose === undefined) return;
    this.#state = "closing";
    this.#local = error === undefined ? { code, reason } : { code, reason, error };
    this.#dropQueue();
    this.#pendingClose = undefined;
    this.#armCloseTimer();
    this.#closeSocket(code, reason);
  }

  /** Counters and buffer sizes, for monitoring and for tests of the bounds. */
  stats(): ConnectionStats {
    const bufferedAmount = this.#ws.bufferedAmount;
    return {
      state: this.#state,
      queuedBytes: this.#queuedBytes,
      queuedMessages: this.#queue.length - this.#head,
      bufferedAmount,
      outboundBytes: this.#queuedBytes + bufferedAmount,
      peakOutboundBytes: this.#peak,
      backpressured: this.#backpressured,
      messagesIn: this.#messagesIn,
      messagesOut: this.#messagesOut,
      bytesIn: this.#bytesIn,
      bytesOut: this.#bytesOut,
    };
  }

  /** @internal Routes inbound messages to `handler` until {@link Connection._open}. */
  _beginHandshake(handler: HandshakeHandler): void {
    this.#handshake = handler;
  }

  /** @internal Sends a handshake-phase message (control message or announcement). */
  _sendHandshake(text: string): SendStatus {
    if (this.#state !== "handshake") return "closed";
    return this.#enqueue(text, false, true);
  }

  /** @internal Ends the handshake: messages now go to `message` listeners. */
  _open(agentId: string): void {
    if (this.#state !== "handshake") return;
    this.#agentId = agentId;
    this.#handshake = undefined;
    this.#state = "open";
  }

  /** @internal Sends a last handshake message (a refusal), then closes with `code` once it is flushed. */
  _refuse(code: number, reason: string, text: string | undefined, error: WsError): void {
    if (this.#state !== "handshake") return;
    if (text !== undefined) this.#enqueue(text, false, true);
    this.#state = "closing";
    this.#local = { code, reason, error };
    this.#pendingClose = { code, reason };
    this.#armCloseTimer();
    this.#flushClose();
  }

  #enqueue(data: string | Buffer, binary: boolean, internal = false): SendStatus {
    const bytes = byteLengthOf(data);
    const limits = this.limits;
    if (bytes > limits.maxPayloadBytes) {
      throw wsError(
        "payload_too_large",
        `message of ${bytes} bytes exceeds maxPayloadBytes (${limits.maxPayloadBytes})`,
        { bytes, limit: limits.maxPayloadBytes },
      );
    }
    const buffered = this.#ws.bufferedAmount;
    if (this.#queuedBytes + buffered + bytes > limits.maxOutboundBufferBytes) {
      this.abort(
        CLOSE_CODES.SLOW_CONSUMER,
        "slow consumer: outbound buffer exceeded",
        wsError(
          "slow_consumer",
          `outbound buffer would exceed ${limits.maxOutboundBufferBytes} bytes`,
          {
            queuedBytes: this.#queuedBytes,
            bufferedAmount: buffered,
            bytes,
            limit: limits.maxOutboundBufferBytes,
          },
        ),
      );
      return "overflow";
    }
    let status: SendStatus;
    if (this.#head === this.#queue.length && buffered < limits.highWaterBytes) {
      this.#write(data, binary, bytes);
      status = "sent";
    } else {
      this.#queue.push({ data, binary, bytes });
      this.#queuedBytes += bytes;
      status = "queued";
    }
    if (!internal) this.#messagesOut += 1;
    const outbound = this.#queuedBytes + this.#ws.bufferedAmount;
    if (outbound > this.#peak) this.#peak = outbound;
    if (!this.#backpressured && outbound > limits.highWaterBytes) {
      this.#backpressured = true;
      this.emit("backpressure");
    }
    return status;
  }

  #write(data: string | Buffer, binary: boolean, bytes: number): void {
    this.#bytesOut += bytes;
    this.#ws.send(data, { binary }, this.#onWritten);
  }

  readonly #onWritten = (error?: Error | null): void => {
    if (error != null || this.#state === "closed") return;
    this.#pump();
  };

  #pump(): void {
    const limits = this.limits;
    while (this.#head < this.#queue.length && this.#ws.bufferedAmount < limits.highWaterBytes) {
      const next = this.#queue[this.#head]!;
      this.#head += 1;
      this.#queuedBytes -= next.bytes;
      this.#write(next.data, next.binary, next.bytes);
    }
    if (this.#head === this.#queue.length) {
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
      if (this.#state === "open") this.emit("drain");
    }
    this.#flushClose();
  }

  #flushClose(): void {
    const pending = this.#pendingClose;
    if (pending === undefined || this.#head < this.#queue.length) return;
    this.#pendingClose = undefined;
    this.#closeSocket(pending.code, pending.reason);
  }

  #closeSocket(code: number, reason: string): void {
    try {
      this.#ws.close(code, closeReason(reason));
    } catch {
      this.#ws.terminate();
    }
  }

  #armCloseTimer(): void {
    if (this.#closeTimer !== undefined) return;
    this.#closeTimer = setTimeout(() => this.#ws.terminate(), this.limits.closeTimeoutMs);
    this.#closeTimer.unref();
  }

  #dropQueue(): void {
    this.#queue = [];
    this.#head = 0;
    this.#queuedBytes = 0;
  }

  #onFrame(data: RawData, isBinary: boolean): void {
    this.#heartbeat.touch();
    if (this.#state === "closed") return;
    const frame = Array.isArray(data)
      ? Buffer.concat(data)
      : Buffer.isBuffer(data)
        ? data
        : Buffer.from(data);
    this.#bytesIn += frame.length;
    if (!isBinary) {
      this.#onMessage(frame.toString("utf8"), false);
      return;
    }
    const decoded = decodeRecords(frame, this.limits);
    if (!decoded.ok) {
      this.#fail(decoded.error);
      return;
    }
    for (const record of decoded.records) {
      const text = recordText(record);
      if (!text.ok) {
        this.#fail(text.error);
        return;
      }
      this.#onMessage(text.text, true);
      if (this.#stopReading()) return;
    }
  }

  /** Whether the rest of a batch must be dropped (the connection ended or is failing). */
  #stopReading(): boolean {
    return this.#state === "closed" || this.#local?.error !== undefined;
  }

  #onMessage(raw: string, binary: boolean): void {
    const classified = classify(raw);
    const meta: MessageMeta = { binary };
    if (this.#state === "handshake") {
      this.#handshake?.(raw, classified, meta);
      return;
    }
    switch (classified.kind) {
      case "application":
        if (this.#state !== "open" && this.#state !== "closing") return;
        this.#messagesIn += 1;
        this.emit("message", raw, meta);
        return;
      case "unknown_control":
        return;
      case "malformed_control":
        this.#fail(wsError("protocol_error", `malformed ${classified.type}: ${classified.issue}`));
        return;
      case "control": {
        const message = classified.message;
        if (message.type === CONTROL_TYPES.DISCONNECT) {
          this.#notice = { code: message.payload.code, reason: message.payload.reason };
          this.emit("disconnecting", this.#notice);
          return;
        }
        this.#fail(wsError("protocol_error", `${message.type} after the handshake`));
        return;
      }
    }
  }

  /** Ends the connection for a failure of the peer, with the failure's close code. */
  #fail(error: WsError): void {
    const code = (error.details["closeCode"] as number | undefined) ?? CLOSE_CODES.PROTOCOL_ERROR;
    this.abort(code, error.message, error);
  }

  #onSocketError(error: Error & { code?: string }): void {
    const mapped = error.code === undefined ? undefined : WS_ERROR_CODES[error.code];
    const wrapped = wsError(mapped ?? "internal", error.message, { socketCode: error.code }, error);
    if (mapped !== undefined && this.#local === undefined) {
      const code = wrapped.details["closeCode"] as number;
      this.#local = { code, reason: error.message, error: wrapped };
    }
    this.#socketError ??= wrapped;
  }

  #onClose(code: number, reason: string): void {
    if (this.#state === "closed") return;
    this.#state = "closed";
    this.#heartbeat.stop();
    if (this.#closeTimer !== undefined) clearTimeout(this.#closeTimer);
    this.#dropQueue();
    this.#pendingClose = undefined;
    this.#handshake = undefined;
    const local = this.#local;
    const info: CloseInfo =
      local !== undefined
        ? { code: local.code, reason: local.reason, initiator: "local" }
        : { code, reason, initiator: "remote" };
    const error = local?.error ?? this.#socketError;
    if (error !== undefined) info.error = error;
    if (this.#notice !== undefined) info.notice = this.#notice;
    this.#resolveClosed(info);
    this.emit("close", info);
  }
}
