import { isOcpError } from "@ocp/types";
import { Deadlines } from "@ocp/types/internal";
import { Pool } from "undici";
import { type HttpError, httpError } from "./errors.js";
import { Exchange, type ExchangeFailures, type Reply } from "./exchange.js";
import { PROTOCOL_VERSION_HEADER } from "./headers.js";
import {
  BODY_EXCERPT_CHARS,
  HANDSHAKE_TIMEOUT_MS,
  KEEP_ALIVE_TIMEOUT_MS,
  MAX_BODY_BYTES,
  MAX_CONNECTIONS,
  positiveLimit,
  REQUEST_TIMEOUT_MS,
} from "./limits.js";

/** How to reach a remote provider: the options of both families' clients. */
export interface ConnectHttpProviderOptions {
  /** Host-chosen id of the provider. */
  readonly id: string;
  /** `https://...`, or `http://` to a loopback host only (C7). The path is the endpoint. */
  readonly url: string | URL;
  /** Bearer token sent as `Authorization`; never logged, never in an error or `inspect` (C8). */
  readonly token?: string;
  readonly requestTimeoutMs?: number;
  readonly handshakeTimeoutMs?: number;
  readonly maxBodyBytes?: number;
  readonly connections?: number;
  readonly keepAliveTimeoutMs?: number;
}

/** A version-00 W3C `traceparent`: only this goes out as a header (never a CR or LF). */
const TRACEPARENT = /^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** How much later than the deadline undici's own header and body timeouts fire. */
const UNDICI_SLACK_MS = 1_000;

/**
 * The request path both protocol families share: one keep-alive undici pool
 * to the provider's origin, the fixed headers of the session (family, bearer
 * token, extra headers), one deadline timer for every exchange in flight,
 * and a POST that yields the status and the whole body or a typed error
 * that names only the origin (never the token). What a body means is the
 * caller's: each family decodes its own envelopes.
 */
export class PostPath {
  readonly id: string;
  readonly url: URL;
  readonly limits: { readonly request: number; readonly handshake: number; readonly body: number };
  readonly #path: string;
  readonly #pool: Pool;
  readonly #headers: Record<string, string>;
  /** One timer for every exchange in flight; it does not hold the process open (a request in flight does). */
  readonly #deadlines = new Deadlines({ holdsProcess: false });
  #closed = false;

  /**
   * @param protocolVersion sent as `ocp-protocol-version` on every request: a
   *   server shared by hosts of both families answers each in its own.
   * @param extraHeaders further fixed headers (e.g. the extensions asked for).
   */
  constructor(
    options: ConnectHttpProviderOptions,
    url: URL,
    protocolVersion: string,
    extraHeaders: Readonly<Record<string, string>> = {},
  ) {
    this.id = options.id;
    this.url = url;
    this.#path = `${url.pathname}${url.search}`;
    this.limits = {
      request: positiveLimit("requestTimeoutMs", options.requestTimeoutMs, REQUEST_TIMEOUT_MS),
      handshake: positiveLimit(
        "handshakeTimeoutMs",
        options.handshakeTimeoutMs,
        HANDSHAKE_TIMEOUT_MS,
      ),
      body: positiveLimit("maxBodyBytes", options.maxBodyBytes, MAX_BODY_BYTES),
    };
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json",
      ...extraHeaders,
      [PROTOCOL_VERSION_HEADER]: protocolVersion,
    };
    if (options.token !== undefined) {
      // RFC 6750 token characters only: a CR or LF could forge headers. The token is not echoed.
      if (!/^[\x21-\x7e]+$/.test(options.token)) {
        throw new RangeError("token must be non-empty visible ASCII");
      }
      headers.authorization = `Bearer ${options.token}`;
    }
    this.#headers = headers;
    this.#pool = new Pool(url.origin, {
      connections: positiveLimit("connections", options.connections, MAX_CONNECTIONS),
      keepAliveTimeout: positiveLimit(
        "keepAliveTimeoutMs",
        options.keepAliveTimeoutMs,
        KEEP_ALIVE_TIMEOUT_MS,
      ),
      headersTimeout: this.limits.request,
      bodyTimeout: this.limits.request,
      connect: { timeout: this.limits.handshake },
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** The endpoint without credentials or query string. */
  get endpoint(): string {
    return `${this.url.origin}${this.url.pathname}`;
  }

  /**
   * POSTs one body and returns the status and the whole reply body, or a
   * typed error: `timeout`, `aborted`, `body_too_large`, `connection_failed`.
   * A `traceparent` goes out only when it is a well-formed version-00 one.
   */
  async post(
    body: string,
    timeoutMs: number,
    signal?: AbortSignal,
    traceparent?: string,
  ): Promise<Reply> {
    if (signal?.aborted) throw this.failures.aborted(signal);
    const exchange = new Exchange(
      this.#deadlines,
      timeoutMs,
      this.limits.body,
      this.failures,
      signal,
    );
    try {
      this.#pool.dispatch(
        {
          path: this.#path,
          method: "POST",
          headers:
            traceparent !== undefined && TRACEPARENT.test(traceparent)
              ? { ...this.#headers, traceparent }
              : this.#headers,
          body,
          // undici's own bounds, past the deadline: the deadline fails the exchange first.
          headersTimeout: timeoutMs + UNDICI_SLACK_MS,
          bodyTimeout: timeoutMs + UNDICI_SLACK_MS,
        },
        exchange,
      );
      return await exchange.promise;
    } catch (error) {
      if (isOcpError(error)) throw error;
      const code = (error as { code?: unknown } | undefined)?.code;
      if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") {
        throw this.failures.timeout(timeoutMs);
      }
      throw this.#transportError(code);
    }
  }

  /** The request timeout resolved from the call's option, or the session's default. */
  timeoutOf(timeoutMs: number | undefined): number {
    return positiveLimit("timeoutMs", timeoutMs, this.limits.request);
  }

  /** `closed` when the session was shut down: checked before a request leaves. */
  assertOpen(shuttingDown: boolean): void {
    if (shuttingDown || this.#closed) {
      throw httpError("closed", `provider "${this.id}" was shut down`);
    }
  }

  /** A 401 or 403: the credentials were refused (the token is not named). */
  unauthorized(status: number, details: Record<string, unknown> = {}): HttpError {
    return httpError(
      "unauthorized",
      `provider "${this.id}" refused the credentials (HTTP ${status})`,
      { details: { status, ...details } },
    );
  }

  /** A reply of a type the request does not expect. */
  unexpected(type: string, asked: string): HttpError {
    return httpError(
      "malformed_reply",
      `provider "${this.id}" answered a ${asked} with "${type}"`,
      { details: { type } },
    );
  }

  /**
   * Sends the family's `shutdown` body (its failure is not an error: there is
   * nothing left to tear down), then closes the connections once requests in
   * flight are answered. Bounded by the request timeout.
   */
  shutdown(body: string): Promise<void> {
    return this.post(body, this.limits.request)
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => this.close());
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#pool.close();
  }

  readonly failures: ExchangeFailures = {
    tooLarge: (status) =>
      httpError(
        "body_too_large",
        `provider "${this.id}" answered a body over ${this.limits.body} bytes`,
        { details: { limit: this.limits.body, status } },
      ),
    timeout: (timeoutMs) =>
      httpError("timeout", `provider "${this.id}" did not answer within ${timeoutMs} ms`, {
        details: {
          timeoutMs,
        },
      }),
    aborted: (signal) =>
      httpError("aborted", `query to provider "${this.id}" was aborted`, { cause: signal.reason }),
  };

  /** Only the origin and the error code: nothing of the request (C8). */
  #transportError(code: unknown): HttpError {
    const origin = this.url.origin;
    return httpError(
      "connection_failed",
      `cannot reach provider "${this.id}" at ${origin}${typeof code === "string" ? ` (${code})` : ""}`,
      { details: { origin, ...(typeof code === "string" ? { cause: code } : {}) } },
    );
  }
}

/** The start of a body that is not what was asked for, for an error's details. */
export function excerpt(text: string): string {
  return text.length <= BODY_EXCERPT_CHARS ? text : `${text.slice(0, BODY_EXCERPT_CHARS)}…`;
}
