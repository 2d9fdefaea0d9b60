/**
 * The types of the server side (server.ts): the `authenticate` callback, the
 * server's options, what it reports of registered and refused connections.
 */
import type { Server as HttpServer, IncomingMessage } from "node:http";
import type { Connection } from "./connection.js";
import type { WsError } from "./errors.js";
import type { LimitOptions } from "./limits.js";

/** What `authenticate` sees besides the announcement and the nonce. */
export interface AuthenticateContext {
  /** The announcement exactly as it arrived, for verifying a signature over its bytes. */
  raw: string;
  /** Whether it arrived as a binary record. */
  binary: boolean;
  /** The id the connection will have (`Connection.id`). */
  connectionId: string;
  remoteAddress: string | undefined;
  /** The HTTP upgrade request (headers, URL). */
  request: IncomingMessage;
}

/** Accept: the agent id and extra fields for the `registered` message. */
export interface AuthenticateAccept {
  agentId: string;
  /** Merged into the payload of `ocp.connection.registered` (e.g. negotiated features, §7.2). */
  registration?: Record<string, unknown>;
}

/** Refuse: why, and which kind of refusal (close 4001, 4002 or 4008). */
export interface AuthenticateRefuse {
  refused: string;
  /** `authentication` (default) → 4001, `registration` → 4002, `policy` → 4008. */
  kind?: "authentication" | "registration" | "policy";
}

export type AuthenticateResult = AuthenticateAccept | AuthenticateRefuse;

/**
 * Decides on an announcement. `announcement` is the parsed JSON of the first
 * message after the ack; `nonce` is the one this connection's ack carried. A
 * throw closes the connection with 1011.
 */
export type Authenticate = (
  announcement: unknown,
  nonce: string,
  context: AuthenticateContext,
) => AuthenticateResult | Promise<AuthenticateResult>;

export interface WsServerOptions extends LimitOptions {
  /** Interface to listen on; `127.0.0.1` by default. Ignored with `httpServer`. */
  host?: string;
  /** Port; 0 (the default) picks a free one. Ignored with `httpServer`. */
  port?: number;
  /**
   * An HTTP(S) server to attach to instead of listening on `host`/`port`
   * (e.g. to share a port with the A2A HTTP endpoints). It must be listening
   * already, and `close()` leaves it open.
   */
  httpServer?: HttpServer;
  /** Only upgrades to this path are accepted; any path by default. */
  path?: string;
  /**
   * Browser origins (`https://host[:port]`) whose pages may open a socket.
   * An upgrade that carries an `Origin` header (every browser sends one) is
   * refused with HTTP 403 unless its origin is listed; none by default.
   * Clients that send no `Origin` (non-browser) are not affected.
   */
  allowedOrigins?: Iterable<string>;
  authenticate: Authenticate;
  /** Extra fields for the payload of every `ocp.connection.ack` (e.g. the server's agent id, features). */
  ackPayload?: Record<string, unknown>;
}

/** What the server knows of a registered connection. */
export interface RegisteredInfo {
  agentId: string;
  /** The parsed announcement. */
  announcement: unknown;
  /** The announcement as it arrived. */
  raw: string;
  request: IncomingMessage;
}

/** A connection that ended before registration. */
export interface RefusalInfo {
  connectionId: string;
  remoteAddress: string | undefined;
  code: number;
  reason: string;
  error: WsError | undefined;
}

export interface ServerStats {
  /** Connections held, handshakes included. */
  connections: number;
  /** Connections registered and open. */
  registered: number;
  /** Sum of `outboundBytes` over all connections. */
  outboundBytes: number;
  /** Highest `peakOutboundBytes` of any connection, ended ones included. */
  peakOutboundBytes: number;
  /** Connections closed with 4003 so far. */
  slowConsumerCloses: number;
  /** Connections refused (4001/4002/4005/4008/handshake failures) so far. */
  refused: number;
}

export interface WsServerEvents {
  /** A connection registered; attach `message` listeners now (synchronously). */
  connection: [connection: Connection, info: RegisteredInfo];
  /** A connection ended before registration. */
  refused: [info: RefusalInfo];
}
