/**
 * One WebSocket connection, either side: inbound frames become raw message
 * texts (never re-serialised), outbound messages go through a bounded queue
 * with backpressure, the peer is watched by a heartbeat, and every end of the
 * connection is reported once with a meaningful close code.
 *
 * Outbound accounting lives in `outbound.ts`: queue plus `bufferedAmount`
 * above `highWaterBytes` reports `backpressured`; a send that would take them
 * above `maxOutboundBufferBytes` is refused, the queue dropped, and the
 * connection closed with 4003.
 */
import { EventEmitter } from "node:events";
import type { RawData, WebSocket } from "ws";
import type {
  CloseInfo,
  ConnectionEvents,
  ConnectionState,
  ConnectionStats,
  DisconnectNotice,
  MessageMeta,
  SendStatus,
} from "./connection-types.js";
import { CLOSE_CODES, CONTROL_TYPES, closeReason, isSendableCloseCode } from "./constants.js";
import { type Classified, classify, encodeControl } from "./control.js";
import { closeCodeOf, type WsError, wsError } from "./errors.js";
import { encodeRecords, frameMessages } from "./framing.js";
import { Heartbeat } from "./heartbeat.js";
import type { Limits } from "./limits.js";
import { Outbound } from "./outbound.js";

export type {
  CloseInfo,
  ConnectionEvents,
  ConnectionState,
  ConnectionStats,
  DisconnectNotice,
  MessageMeta,
  SendStatus,
};

/** @internal Receives every inbound message until the connection is open. */
export type HandshakeHandler = (raw: string, classified: Classified, meta: MessageMeta) => void;

let counter = 0;

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
  readonly #out: Outbound;
  #pendingClose: { code: number; reason: string } | undefined;
  #local: { code: number; reason: string; error?: WsError } | undefined;
  #notice: DisconnectNotice | undefined;
  #socketError: WsError | undefined;
  #closeTimer: NodeJS.Timeout | undefined;
  #resolveClosed!: (info: CloseInfo) => void;
  #messagesIn = 0;
  #messagesOut = 0;
  #bytesIn = 0;

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
    this.#out = new Outbound(ws, options.limits, {
      backpressure: () => this.emit("backpressure"),
      drain: () => {
        if (this.#state === "open") this.emit("drain");
      },
      overflow: (error) =>
        this.abort(CLOSE_CODES.SLOW_CONSUMER, "slow consumer: outbound buffer exceeded", error),
      pumped: () => this.#flushClose(),
    });
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
    return this.#out.backpressured;
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
    this.#out.clear();
    this.#pendingClose = undefined;
    this.#armCloseTimer();
    this.#closeSocket(code, reason);
  }

  /** Counters and buffer sizes, for monitoring and for tests of the bounds. */
  stats(): ConnectionStats {
    const bufferedAmount = this.#ws.bufferedAmount;
    return {
      state: this.#state,
      queuedBytes: this.#out.queuedBytes,
      queuedMessages: this.#out.queuedMessages,
      bufferedAmount,
      outboundBytes: this.#out.queuedBytes + bufferedAmount,
      peakOutboundBytes: this.#out.peak,
      backpressured: this.#out.backpressured,
      messagesIn: this.#messagesIn,
      messagesOut: this.#messagesOut,
      bytesIn: this.#bytesIn,
      bytesOut: this.#out.bytesOut,
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
    const status = this.#out.enqueue(data, binary);
    if (status !== "overflow" && !internal) this.#messagesOut += 1;
    return status;
  }

  #flushClose(): void {
    const pending = this.#pendingClose;
    if (pending === undefined || !this.#out.empty) return;
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

  #onFrame(data: RawData, isBinary: boolean): void {
    this.#heartbeat.touch();
    if (this.#state === "closed") return;
    const frame = Array.isArray(data)
      ? Buffer.concat(data)
      : Buffer.isBuffer(data)
        ? data
        : Buffer.from(data);
    this.#bytesIn += frame.length;
    const result = frameMessages(frame, isBinary, this.limits);
    if (!result.ok) {
      this.#fail(result.error);
      return;
    }
    for (const message of result.messages) {
      this.#onMessage(message.text, message.binary);
      // The rest of a batch is dropped once the connection ended or is failing.
      if (this.#local?.error !== undefined || this.#isClosed()) return;
    }
  }

  #isClosed(): boolean {
    return this.#state === "closed";
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
        // Only a registered connection delivers (not one refused mid-handshake).
        if (this.#agentId === undefined) return;
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
          this.#notice = {
            code: message.payload.code ?? CLOSE_CODES.NORMAL,
            reason: message.payload.reason ?? "",
          };
          this.emit("disconnecting", this.#notice);
          this.#closeAfterNotice();
          return;
        }
        this.#fail(wsError("protocol_error", `${message.type} after the handshake`));
        return;
      }
    }
  }

  /**
   * The peer said goodbye: nothing follows its notice but its close. If that
   * close has not come within `disconnectGraceMs`, this side closes (1000,
   * once its own queue is flushed, no notice back) instead of holding the
   * socket for a peer that may never send it.
   */
  #closeAfterNotice(): void {
    const timer = setTimeout(() => {
      if (this.#state !== "open") return;
      this.#state = "closing";
      const close = { code: CLOSE_CODES.NORMAL, reason: "peer disconnected" };
      this.#local = close;
      this.#pendingClose = close;
      this.#armCloseTimer();
      this.#flushClose();
    }, this.limits.disconnectGraceMs);
    timer.unref?.();
  }

  /** Ends the connection for a failure of the peer, with the failure's close code. */
  #fail(error: WsError): void {
    const code = (error.details["closeCode"] as number | undefined) ?? CLOSE_CODES.PROTOCOL_ERROR;
    this.abort(code, error.message, error);
  }

  #onSocketError(error: Error & { code?: string }): void {
    const mapped = error.code === undefined ? undefined : WS_ERROR_CODES[error.code];
    const details = { socketCode: error.code };
    const wrapped = wsError(mapped ?? "internal", error.message, { details, cause: error });
    if (mapped !== undefined && this.#local === undefined) {
      this.#local = { code: closeCodeOf(wrapped)!, reason: error.message, error: wrapped };
    }
    this.#socketError ??= wrapped;
  }

  #onClose(code: number, reason: string): void {
    if (this.#state === "closed") return;
    this.#state = "closed";
    this.#heartbeat.stop();
    if (this.#closeTimer !== undefined) clearTimeout(this.#closeTimer);
    this.#out.stop();
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
