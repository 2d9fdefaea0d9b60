/**
 * The server side of §6.4: accepts upgrades that offer `a2a-ocp-v1` (and
 * refuses any other at the upgrade, HTTP 400; a browser page of an unlisted
 * origin, HTTP 403), sends each connection an ack
 * with a fresh nonce, hands the first message — the agent announcement — to
 * the `authenticate` callback of the layer above with that nonce, and either
 * confirms the registration and emits the connection, or refuses it with a
 * reason and a close code. What an announcement is and how it is verified
 * are the caller's business; the transport only binds it to the nonce.
 */

import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import type { IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { parseJsonText } from "@ocp/types/internal";
import { WebSocketServer } from "ws";
import { Connection } from "./connection.js";
import { CLOSE_CODES, CONTROL_TYPES, SUBPROTOCOL } from "./constants.js";
import { encodeControl } from "./control.js";
import { wsError } from "./errors.js";
import { type Limits, pickLimits, resolveLimits } from "./limits.js";
import { originAllowed, originPolicy } from "./origin.js";
import type {
  AuthenticateContext,
  AuthenticateRefuse,
  AuthenticateResult,
  RegisteredInfo,
  ServerStats,
  WsServerEvents,
  WsServerOptions,
} from "./server-types.js";

export type {
  Authenticate,
  AuthenticateAccept,
  AuthenticateContext,
  AuthenticateRefuse,
  AuthenticateResult,
  RefusalInfo,
  RegisteredInfo,
  ServerStats,
  WsServerEvents,
  WsServerOptions,
} from "./server-types.js";

/** Bytes of a fresh handshake nonce (before base64url). */
export const NONCE_BYTES = 32;

const REFUSAL_CODES = {
  authentication: ["authentication_failed", CLOSE_CODES.AUTHENTICATION_FAILED],
  registration: ["registration_refused", CLOSE_CODES.REGISTRATION_REFUSED],
  policy: ["policy_violation", CLOSE_CODES.POLICY_VIOLATION],
} as const;

/** Whether the upgrade request offers the a2a-ocp-v1 subprotocol. */
export function offersSubprotocol(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(",") : (header ?? "");
  return value.split(",").some((p) => p.trim() === SUBPROTOCOL);
}

export class WsServer extends EventEmitter<WsServerEvents> {
  readonly limits: Readonly<Limits>;
  readonly #wss: WebSocketServer;
  readonly #options: WsServerOptions;
  readonly #all = new Set<Connection>();
  readonly #registered = new Set<Connection>();
  #peak = 0;
  #slow = 0;
  #refused = 0;
  #closing: Promise<void> | undefined;

  /** Use {@link createWsServer}. */
  constructor(wss: WebSocketServer, options: WsServerOptions, limits: Limits) {
    super();
    this.#wss = wss;
    this.#options = options;
    this.limits = limits;
    wss.on("connection", (ws, request) => this.#accept(ws, request));
  }

  /** The port listened on. */
  get port(): number {
    return (this.#wss.address() as AddressInfo).port;
  }

  /** `ws://host:port/path` to connect to. */
  get url(): string {
    const address = this.#wss.address() as AddressInfo;
    const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
    return `ws://${host}:${address.port}${this.#options.path ?? "/"}`;
  }

  /** The registered, open connections. */
  connections(): ReadonlySet<Connection> {
    return this.#registered;
  }

  stats(): ServerStats {
    let outbound = 0;
    for (const connection of this.#all) {
      const stats = connection.stats();
      outbound += stats.outboundBytes;
      if (stats.peakOutboundBytes > this.#peak) this.#peak = stats.peakOutboundBytes;
    }
    return {
      connections: this.#all.size,
      registered: this.#registered.size,
      outboundBytes: outbound,
      peakOutboundBytes: this.#peak,
      slowConsumerCloses: this.#slow,
      refused: this.#refused,
    };
  }

  /**
   * Sends every registered connection a disconnect notice, closes them all
   * with `code` (bounded by `closeTimeoutMs`), then stops listening.
   */
  close(code: number = CLOSE_CODES.GOING_AWAY, reason = "server shutting down"): Promise<void> {
    this.#closing ??= (async () => {
      const all = [...this.#all];
      for (const connection of all) connection.close(code, reason);
      await Promise.all(all.map((connection) => connection.closed));
      await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
    })();
    return this.#closing;
  }

  #accept(ws: import("ws").WebSocket, request: IncomingMessage): void {
    const remoteAddress = request.socket.remoteAddress;
    const connection = new Connection(ws, { role: "server", limits: this.limits, remoteAddress });
    connection.once("close", (info) => {
      this.#all.delete(connection);
      const wasRegistered = this.#registered.delete(connection);
      const peak = connection.stats().peakOutboundBytes;
      if (peak > this.#peak) this.#peak = peak;
      if (info.code === CLOSE_CODES.SLOW_CONSUMER && info.initiator === "local") this.#slow += 1;
      if (!wasRegistered) {
        this.#refused += 1;
        this.emit("refused", {
          connectionId: connection.id,
          remoteAddress,
          code: info.code,
          reason: info.reason,
          error: info.error,
        });
      }
    });
    if (this.#closing !== undefined) {
      connection.abort(CLOSE_CODES.GOING_AWAY, "server shutting down");
      return;
    }
    if (this.#all.size >= this.limits.maxConnections) {
      this.#all.add(connection);
      connection.abort(
        CLOSE_CODES.TOO_MANY_CONNECTIONS,
        "too many connections",
        wsError("too_many_connections", `server holds ${this.limits.maxConnections} connections`, {
          details: {
            limit: this.limits.maxConnections,
          },
        }),
      );
      return;
    }
    this.#all.add(connection);
    this.#handshake(connection, request);
  }

  #handshake(connection: Connection, request: IncomingMessage): void {
    const limits = this.limits;
    const nonce = randomBytes(NONCE_BYTES).toString("base64url");
    const timer = setTimeout(() => {
      connection.abort(
        CLOSE_CODES.HANDSHAKE_TIMEOUT,
        "handshake timeout",
        wsError("handshake_timeout", `no registration within ${limits.handshakeTimeoutMs} ms`),
      );
    }, limits.handshakeTimeoutMs);
    timer.unref();
    connection.once("close", () => clearTimeout(timer));
    let announced = false;
    connection._beginHandshake((raw, classified, meta) => {
      if (announced || classified.kind !== "application") {
        connection.abort(
          CLOSE_CODES.PROTOCOL_ERROR,
          announced ? "message before registration" : "expected an agent announcement",
          wsError(
            "protocol_error",
            announced
              ? "the client sent a message before its registration was confirmed"
              : "the first message after the ack must be the agent announcement",
          ),
        );
        return;
      }
      announced = true;
      const json = parseJsonText(raw);
      if (!json.ok) {
        connection.abort(
          CLOSE_CODES.PROTOCOL_ERROR,
          "announcement is not I-JSON",
          wsError("protocol_error", `the agent announcement is not I-JSON: ${json.error.message}`),
        );
        return;
      }
      const announcement: unknown = json.value;
      const context: AuthenticateContext = {
        raw,
        binary: meta.binary,
        connectionId: connection.id,
        remoteAddress: connection.remoteAddress,
        request,
      };
      Promise.resolve()
        .then(() => this.#options.authenticate(announcement, nonce, context))
        .then(
          (result) => {
            clearTimeout(timer);
            this.#decide(connection, result, { announcement, raw, request });
          },
          (error: unknown) => {
            clearTimeout(timer);
            connection.abort(
              CLOSE_CODES.INTERNAL_ERROR,
              "authentication failed internally",
              wsError("internal", "the authenticate callback threw", { cause: error }),
            );
          },
        );
    });
    connection._sendHandshake(
      encodeControl(CONTROL_TYPES.ACK, {
        ...this.#options.ackPayload,
        nonce,
        serverTime: new Date().toISOString(),
        limits: {
          maxPayloadBytes: limits.maxPayloadBytes,
          maxBatchRecords: limits.maxBatchRecords,
          heartbeatIntervalMs: limits.heartbeatIntervalMs,
          heartbeatTimeoutMs: limits.heartbeatTimeoutMs,
          handshakeTimeoutMs: limits.handshakeTimeoutMs,
        },
      }),
    );
  }

  #decide(
    connection: Connection,
    result: AuthenticateResult,
    info: Omit<RegisteredInfo, "agentId">,
  ): void {
    if (connection.state !== "handshake") return;
    if (typeof result === "object" && result !== null && "agentId" in result) {
      if (typeof result.agentId !== "string" || result.agentId.length === 0) {
        connection.abort(
          CLOSE_CODES.INTERNAL_ERROR,
          "authentication failed internally",
          wsError("internal", "authenticate returned an empty agentId"),
        );
        return;
      }
      connection._sendHandshake(
        encodeControl(CONTROL_TYPES.REGISTERED, {
          ...result.registration,
          agentId: result.agentId,
        }),
      );
      connection._open(result.agentId);
      this.#registered.add(connection);
      this.emit("connection", connection, { ...info, agentId: result.agentId });
      return;
    }
    const refusal = result as AuthenticateRefuse;
    const [code, closeCode] = REFUSAL_CODES[refusal.kind ?? "authentication"];
    const reason = String(refusal.refused);
    connection._refuse(
      closeCode,
      reason,
      encodeControl(CONTROL_TYPES.REFUSED, { reason, code: closeCode }),
      wsError(code, `announcement refused: ${reason}`, { details: { reason } }),
    );
  }
}

/** Starts a server and resolves once it listens. */
export function createWsServer(options: WsServerOptions): Promise<WsServer> {
  const limits = resolveLimits(pickLimits(options));
  let origins: ReadonlySet<string>;
  try {
    origins = originPolicy(options.allowedOrigins);
  } catch (error) {
    return Promise.reject(error);
  }
  return new Promise((resolve, reject) => {
    if (options.httpServer !== undefined && !options.httpServer.listening) {
      reject(new TypeError("httpServer must be listening before createWsServer"));
      return;
    }
    const listen =
      options.httpServer === undefined
        ? { host: options.host ?? "127.0.0.1", port: options.port ?? 0 }
        : { server: options.httpServer };
    const wss = new WebSocketServer({
      ...listen,
      ...(options.path === undefined ? {} : { path: options.path }),
      maxPayload: limits.maxPayloadBytes,
      // Compression is a message-layer concern (§12.2); per-message deflate
      // costs CPU per frame and opens the door to decompression bombs.
      perMessageDeflate: false,
      clientTracking: false,
      handleProtocols: (protocols) => (protocols.has(SUBPROTOCOL) ? SUBPROTOCOL : false),
      verifyClient: (
        info: { req: IncomingMessage },
        done: (ok: boolean, code?: number, message?: string) => void,
      ) => {
        // A page of an unlisted origin never gets a socket (checked first: it says the least).
        if (!originAllowed(info.req.headers.origin, origins))
          done(false, 403, "origin not allowed");
        else if (offersSubprotocol(info.req.headers["sec-websocket-protocol"])) done(true);
        else done(false, 400, `subprotocol ${SUBPROTOCOL} required`);
      },
    });
    const onError = (error: Error) => reject(error);
    const started = () => {
      wss.off("error", onError);
      wss.on("error", () => {
        // Listening errors after start surface on the sockets' own close events.
      });
      resolve(new WsServer(wss, options, limits));
    };
    wss.once("error", onError);
    if (options.httpServer === undefined) wss.once("listening", started);
    else started();
  });
}
