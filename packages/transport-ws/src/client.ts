/**
 * The client side of §6.4: connects with subprotocol `a2a-ocp-v1`, waits for
 * the server's ack, sends the announcement the layer above builds over the
 * ack's nonce, and waits for registration. When an established connection is
 * lost it reconnects with exponential backoff and jitter, announces again
 * (the `announce` callback sees `lastSeq`, which the layer above keeps up to
 * date, so the server can resume from it) and calls `onReconnected` so the
 * layer above restores its subscriptions.
 */
import { EventEmitter } from "node:events";
import { WebSocket } from "ws";
import { backoffDelay } from "./backoff.js";
import {
  type CloseInfo,
  Connection,
  type ConnectionStats,
  type DisconnectNotice,
  type MessageMeta,
  type SendStatus,
} from "./connection.js";
import { CLOSE_CODES, CONTROL_TYPES, SUBPROTOCOL, TERMINAL_CLOSE_CODES } from "./constants.js";
import type { ConnectionAck, ConnectionRegistered } from "./control.js";
import { type WsError, type WsErrorCode, wsError } from "./errors.js";
import { type LimitOptions, type Limits, pickLimits, resolveLimits } from "./limits.js";

/** What `announce` knows when it builds an announcement. */
export interface AnnounceContext {
  /** The payload of the server's ack (nonce, server time, limits, extra fields). */
  ack: ConnectionAck["payload"];
  /** Whether this client was registered before (this is a re-announcement). */
  reconnect: boolean;
  /** The last sequence number the layer above saw, as it last set `client.lastSeq`. */
  lastSeq: number | undefined;
  /** Consecutive failed attempts before this one. */
  attempt: number;
}

/** A registration the server confirmed. */
export interface ClientRegistration {
  agentId: string;
  /** The whole payload of `ocp.connection.registered` (agentId and what `authenticate` added). */
  payload: Record<string, unknown>;
  /** Whether this registration follows a lost connection. */
  reconnected: boolean;
  connection: Connection;
}

/** A reconnect the client is about to make. */
export interface ReconnectInfo {
  /** 1 for the first retry after a loss. */
  attempt: number;
  delayMs: number;
  /** How the previous connection (or attempt) ended. */
  previous: CloseInfo;
}

export interface WsClientOptions extends LimitOptions {
  /** `ws://` or `wss://` URL of the server. */
  url: string;
  /** Builds the agent announcement (JSON text) over the ack's nonce. */
  announce: (nonce: string, context: AnnounceContext) => string | Promise<string>;
  /** Receives every application message (registered before the first connect, so none is missed). */
  onMessage?: (raw: string, meta: MessageMeta) => void;
  /** After each re-registration, before `registered` is emitted: restore subscriptions here. */
  onReconnected?: (client: WsClient, registration: ClientRegistration) => void | Promise<void>;
  /** Whether a lost connection is re-established; true by default. */
  reconnect?: boolean;
  /** Extra headers of the upgrade request. */
  headers?: Record<string, string>;
  /** Uniform random source of the jitter; `Math.random` by default. */
  random?: () => number;
}

export type ClientState = "idle" | "connecting" | "open" | "reconnecting" | "closed";

export interface WsClientEvents {
  registered: [registration: ClientRegistration];
  message: [raw: string, meta: MessageMeta];
  reconnecting: [info: ReconnectInfo];
  disconnecting: [notice: DisconnectNotice];
  backpressure: [];
  drain: [];
  /** The client is done for good (closed by the caller, refused, or out of attempts). */
  close: [info: CloseInfo];
}

const CLOSE_ERROR_CODES: Record<number, WsErrorCode> = {
  [CLOSE_CODES.PROTOCOL_ERROR]: "protocol_error",
  [CLOSE_CODES.AUTHENTICATION_FAILED]: "authentication_failed",
  [CLOSE_CODES.REGISTRATION_REFUSED]: "registration_refused",
  [CLOSE_CODES.POLICY_VIOLATION]: "policy_violation",
  [CLOSE_CODES.TOO_MANY_CONNECTIONS]: "too_many_connections",
};

export class WsClient extends EventEmitter<WsClientEvents> {
  readonly limits: Readonly<Limits>;
  /** The last sequence number the layer above saw; passed to `announce` on every (re)connect. */
  lastSeq: number | undefined;
  readonly #options: WsClientOptions;
  #state: ClientState = "idle";
  #connection: Connection | undefined;
  #agentId: string | undefined;
  #registeredOnce = false;
  #attempt = 0;
  #timer: NodeJS.Timeout | undefined;
  #closing: { code: number; reason: string } | undefined;
  #ready: { resolve: () => void; reject: (error: WsError) => void } | undefined;
  #readyPromise: Promise<void> | undefined;
  #final: CloseInfo | undefined;
  #dialing: WebSocket | undefined;

  constructor(options: WsClientOptions) {
    super();
    const url = new URL(options.url);
    if (url.protocol !== "ws:" && url.protocol !== "wss:") {
      throw new TypeError(`url must be ws:// or wss:// (got ${url.protocol})`);
    }
    this.#options = options;
    this.limits = resolveLimits(pickLimits(options));
    if (options.onMessage !== undefined) this.on("message", options.onMessage);
  }

  get state(): ClientState {
    return this.#state;
  }

  /** The agent id of the current (or last) registration. */
  get agentId(): string | undefined {
    return this.#agentId;
  }

  /** The current connection, when one is open. */
  get connection(): Connection | undefined {
    return this.#connection?.state === "open" ? this.#connection : undefined;
  }

  get backpressured(): boolean {
    return this.#connection?.backpressured ?? false;
  }

  /**
   * Connects and resolves at the first registration. Rejects with the
   * refusal (`authentication_failed`, `registration_refused`, ...), or with
   * `unreachable` once `reconnectMaxAttempts` attempts failed.
   */
  connect(): Promise<void> {
    if (this.#readyPromise !== undefined) return this.#readyPromise;
    this.#readyPromise = new Promise<void>((resolve, reject) => {
      this.#ready = { resolve, reject };
    });
    this.#state = "connecting";
    this.#dial();
    return this.#readyPromise;
  }

  /** Sends one message as a text frame on the current connection; `closed` while there is none. */
  send(message: string | Buffer): SendStatus {
    return this.connection?.send(message) ?? "closed";
  }

  /** Sends messages as length-prefixed records in binary frames; `closed` while there is no connection. */
  sendBatch(messages: readonly (string | Buffer)[]): SendStatus {
    return this.connection?.sendBatch(messages) ?? "closed";
  }

  stats(): ConnectionStats | undefined {
    return this.#connection?.stats();
  }

  /**
   * Stops for good: a disconnect notice, then a close with `code` once the
   * queue is flushed; no reconnect. Resolves with how the client ended.
   */
  close(code: number = CLOSE_CODES.NORMAL, reason = "client closing"): Promise<CloseInfo> {
    if (this.#final !== undefined) return Promise.resolve(this.#final);
    const done = new Promise<CloseInfo>((resolve) => this.once("close", resolve));
    if (this.#closing === undefined) {
      this.#closing = { code, reason };
      if (this.#timer !== undefined) clearTimeout(this.#timer);
      this.#dialing?.terminate();
      const connection = this.#connection;
      if (connection !== undefined && connection.state !== "closed") connection.close(code, reason);
      else this.#finish({ code, reason, initiator: "local" });
    }
    return done;
  }

  #dial(): void {
    const ws = new WebSocket(this.#options.url, [SUBPROTOCOL], {
      maxPayload: this.limits.maxPayloadBytes,
      // Compression is a message-layer concern (§12.2); see the README.
      perMessageDeflate: false,
      handshakeTimeout: this.limits.handshakeTimeoutMs,
      ...(this.#options.headers === undefined ? {} : { headers: this.#options.headers }),
    });
    this.#dialing = ws;
    let failure: Error | undefined;
    const onError = (error: Error) => {
      failure = error;
    };
    const onEarlyClose = () => {
      this.#dialing = undefined;
      this.#lost({
        code: 1006,
        reason: failure?.message ?? "connection failed",
        initiator: "remote",
        error: wsError("closed", `could not connect: ${failure?.message ?? "closed"}`, {
          cause: failure,
        }),
      });
    };
    ws.on("error", onError);
    ws.once("close", onEarlyClose);
    ws.once("open", () => {
      this.#dialing = undefined;
      ws.off("close", onEarlyClose);
      ws.off("error", onError);
      this.#open(ws);
    });
  }

  #open(ws: WebSocket): void {
    const connection = new Connection(ws, {
      role: "client",
      limits: this.limits,
      remoteAddress: this.#options.url,
    });
    this.#connection = connection;
    if (this.#closing !== undefined) {
      connection.abort(this.#closing.code, this.#closing.reason);
    } else if (ws.protocol !== SUBPROTOCOL) {
      connection.abort(
        CLOSE_CODES.PROTOCOL_ERROR,
        "subprotocol not negotiated",
        wsError("protocol_error", `the server did not select ${SUBPROTOCOL}`),
      );
    }
    let refusal: { code: number; reason: string } | undefined;
    const timer = setTimeout(() => {
      connection.abort(
        CLOSE_CODES.HANDSHAKE_TIMEOUT,
        "handshake timeout",
        wsError("handshake_timeout", `no registration within ${this.limits.handshakeTimeoutMs} ms`),
      );
    }, this.limits.handshakeTimeoutMs);
    timer.unref();
    let stage: "ack" | "announcing" | "registering" = "ack";
    const protocolError = (message: string) =>
      connection.abort(CLOSE_CODES.PROTOCOL_ERROR, message, wsError("protocol_error", message));
    connection._beginHandshake((_raw, classified) => {
      if (classified.kind === "unknown_control") return;
      if (classified.kind !== "control") {
        protocolError(
          classified.kind === "malformed_control"
            ? `malformed ${classified.type}: ${classified.issue}`
            : "application message before registration",
        );
        return;
      }
      const message = classified.message;
      if (stage === "ack" && message.type === CONTROL_TYPES.ACK) {
        stage = "announcing";
        const context: AnnounceContext = {
          ack: message.payload,
          reconnect: this.#registeredOnce,
          lastSeq: this.lastSeq,
          attempt: this.#attempt,
        };
        Promise.resolve()
          .then(() => this.#options.announce(message.payload.nonce, context))
          .then(
            (announcement: unknown) => {
              if (typeof announcement !== "string" || announcement.length === 0) {
                connection.abort(
                  CLOSE_CODES.INTERNAL_ERROR,
                  "announce failed",
                  wsError(
                    "internal",
                    "the announce callback must return the announcement's JSON text",
                  ),
                );
                return;
              }
              stage = "registering";
              connection._sendHandshake(announcement);
            },
            (error: unknown) =>
              connection.abort(
                CLOSE_CODES.INTERNAL_ERROR,
                "announce failed",
                wsError("internal", "the announce callback threw", { cause: error }),
              ),
          );
        return;
      }
      if (stage === "registering" && message.type === CONTROL_TYPES.REGISTERED) {
        clearTimeout(timer);
        connection._open(message.payload.agentId);
        this.#registered(connection, message.payload);
        return;
      }
      if (stage === "registering" && message.type === CONTROL_TYPES.REFUSED) {
        refusal = { code: message.payload.code, reason: message.payload.reason };
        return;
      }
      if (message.type === CONTROL_TYPES.DISCONNECT) return;
      protocolError(`unexpected ${message.type} while waiting for ${stage}`);
    });
    connection.on("message", (raw, meta) => this.emit("message", raw, meta));
    connection.on("disconnecting", (notice) => this.emit("disconnecting", notice));
    connection.on("backpressure", () => this.emit("backpressure"));
    connection.on("drain", () => this.emit("drain"));
    connection.once("close", (info) => {
      clearTimeout(timer);
      if (this.#connection === connection) this.#connection = undefined;
      const ended: CloseInfo =
        refusal !== undefined && info.initiator === "remote"
          ? { ...info, reason: refusal.reason || info.reason }
          : info;
      this.#lost(ended);
    });
  }

  #registered(connection: Connection, payload: ConnectionRegistered["payload"]): void {
    const reconnected = this.#registeredOnce;
    this.#registeredOnce = true;
    this.#attempt = 0;
    this.#state = "open";
    this.#agentId = connection.agentId;
    const registration: ClientRegistration = {
      agentId: connection.agentId as string,
      payload: { ...payload },
      reconnected,
      connection,
    };
    const hook = reconnected ? this.#options.onReconnected : undefined;
    Promise.resolve()
      .then(() => hook?.(this, registration))
      .then(
        () => {
          if (connection.state !== "open") return;
          this.emit("registered", registration);
          const ready = this.#ready;
          this.#ready = undefined;
          ready?.resolve();
        },
        (error: unknown) =>
          connection.abort(
            CLOSE_CODES.INTERNAL_ERROR,
            "onReconnected failed",
            wsError("internal", "the onReconnected callback threw", { cause: error }),
          ),
      );
  }

  /** A connection (or an attempt) ended: reconnect, or finish. */
  #lost(info: CloseInfo): void {
    if (this.#final !== undefined) return;
    if (this.#closing !== undefined) {
      this.#finish(info);
      return;
    }
    const terminal =
      this.#options.reconnect === false ||
      (info.initiator === "remote" && TERMINAL_CLOSE_CODES.has(info.code)) ||
      (info.initiator === "local" && info.code === CLOSE_CODES.PROTOCOL_ERROR);
    if (terminal) {
      this.#finish(info);
      return;
    }
    this.#attempt += 1;
    if (this.#attempt > this.limits.reconnectMaxAttempts) {
      this.#finish({
        ...info,
        error: wsError(
          "unreachable",
          `no registration after ${this.limits.reconnectMaxAttempts} attempts`,
          {
            details: { attempts: this.limits.reconnectMaxAttempts, last: info.reason },
          },
        ),
      });
      return;
    }
    const delayMs = backoffDelay(this.#attempt - 1, {
      baseMs: this.limits.reconnectBaseMs,
      maxMs: this.limits.reconnectMaxMs,
      ...(this.#options.random === undefined ? {} : { random: this.#options.random }),
    });
    this.#state = "reconnecting";
    this.emit("reconnecting", { attempt: this.#attempt, delayMs, previous: info });
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.#closing === undefined) this.#dial();
    }, delayMs);
  }

  #finish(info: CloseInfo): void {
    if (this.#final !== undefined) return;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#final = info;
    this.#state = "closed";
    const ready = this.#ready;
    this.#ready = undefined;
    if (ready !== undefined) {
      const code =
        info.error?.code === "unreachable" ? "unreachable" : CLOSE_ERROR_CODES[info.code];
      ready.reject(
        info.error?.code === "unreachable"
          ? info.error
          : wsError(
              code ?? "closed",
              `connection ended before registration: ${info.code} ${info.reason}`,
              {
                details: { code: info.code, reason: info.reason },
              },
            ),
      );
    }
    this.emit("close", info);
  }
}

/** Creates a client and resolves once it is registered (see {@link WsClient.connect}). */
export async function connectWs(options: WsClientOptions): Promise<WsClient> {
  const client = new WsClient(options);
  await client.connect();
  return client;
}
