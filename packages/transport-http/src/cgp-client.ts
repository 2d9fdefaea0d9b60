import { isOcpError, type QueryOptions } from "@ocp/types";
import {
  CGP_PROTOCOL_VERSION,
  type CgpEnvelope,
  type CgpReplyEnvelope,
  cgpRemoteError,
  checkCgpAck,
  decodeCgpEnvelope,
} from "@ocp/types/cgp";
import { parseJsonFast } from "@ocp/types/fast";
import { Deadlines } from "@ocp/types/internal";
import { Pool } from "undici";
import { type HttpError, httpError } from "./errors.js";
import { Exchange, type ExchangeFailures } from "./exchange.js";
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
import { checkProviderUrl } from "./url.js";

type Ack = Extract<CgpEnvelope, { type: "handshake_ack" }>;
type Query = Extract<CgpEnvelope, { type: "query" }>["query"];
type Result = Extract<CgpEnvelope, { type: "frames" }>["result"];
type VerifyRequest = Extract<CgpEnvelope, { type: "verify" }>["request"];
type VerifyResponse = Extract<CgpEnvelope, { type: "verified" }>["response"];

export interface ConnectCgpHttpProviderOptions {
  /** Host-chosen id of the provider. */
  readonly id: string;
  /** `https://...`, or `http://` to a loopback host only (C7). */
  readonly url: string | URL;
  /** Bearer token sent as `Authorization`; never logged, never in an error (C8). */
  readonly token?: string;
  readonly requestTimeoutMs?: number;
  readonly handshakeTimeoutMs?: number;
  readonly maxBodyBytes?: number;
  readonly connections?: number;
  readonly keepAliveTimeoutMs?: number;
}

/** A remote `contextgraph/1` provider: the CGP session the host drives. */
export interface CgpHttpProvider {
  readonly id: string;
  readonly family: "contextgraph/1";
  readonly protocolVersion: string;
  /** The endpoint (no credentials in it). */
  readonly url: string;
  readonly info: Ack["provider"];
  readonly capabilities: Ack["capabilities"];
  query(query: Query, options?: QueryOptions): Promise<Result>;
  verify(request: VerifyRequest, options?: QueryOptions): Promise<VerifyResponse>;
  shutdown(): Promise<void>;
}

/**
 * Connects to a remote provider and handshakes in `contextgraph/1.0-draft`.
 * C7: a plain-http URL off loopback is refused (`insecure_url`) before any
 * byte leaves. C8: the token travels only in the `authorization` header and
 * is never part of a message, detail or cause. Another family's ack, or an
 * `incompatible_version` error, fails with `incompatible_version` (H3).
 */
export async function connectCgpHttpProvider(
  options: ConnectCgpHttpProviderOptions,
): Promise<CgpHttpProvider> {
  const url = checkProviderUrl(options.url);
  if (url instanceof Error) throw url;
  const client = new CgpHttpClient(options, url);
  try {
    await client.handshake();
    return client;
  } catch (error) {
    await client.close();
    throw error;
  }
}

class CgpHttpClient implements CgpHttpProvider {
  readonly id: string;
  readonly family = "contextgraph/1" as const;
  readonly url: string;
  readonly #origin: string;
  readonly #path: string;
  readonly #pool: Pool;
  readonly #headers: Record<string, string>;
  readonly #limits: { request: number; handshake: number; body: number };
  readonly #deadlines = new Deadlines({ holdsProcess: false });
  #ack: Ack | undefined;
  #shutdown: Promise<void> | undefined;
  #closed = false;

  constructor(options: ConnectCgpHttpProviderOptions, url: URL) {
    this.id = options.id;
    this.url = `${url.origin}${url.pathname}`;
    this.#origin = url.origin;
    this.#path = `${url.pathname}${url.search}`;
    this.#limits = {
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
      // The session's family on every request: a server shared by hosts of both families answers each in its own.
      [PROTOCOL_VERSION_HEADER]: CGP_PROTOCOL_VERSION,
    };
    if (options.token !== undefined) {
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
      headersTimeout: this.#limits.request,
      bodyTimeout: this.#limits.request,
      connect: { timeout: this.#limits.handshake },
    });
  }

  get protocolVersion(): string {
    return this.#ack?.protocol_version ?? CGP_PROTOCOL_VERSION;
  }
  get info(): Ack["provider"] {
    return this.#ack!.provider;
  }
  get capabilities(): Ack["capabilities"] {
    return this.#ack!.capabilities;
  }

  async handshake(): Promise<void> {
    const reply = await this.#post(
      JSON.stringify({ type: "handshake", protocol_version: CGP_PROTOCOL_VERSION }),
      this.#limits.handshake,
    );
    const checked = checkCgpAck(reply.value, this.id, httpError);
    if (!checked.ok) throw checked.error;
    this.#ack = checked.ack;
  }

  async query(query: Query, options: QueryOptions = {}): Promise<Result> {
    const reply = await this.#request({ type: "query", query }, options);
    if (reply.type === "frames") return reply.result;
    throw this.#unexpected(reply.type, "query");
  }

  async verify(request: VerifyRequest, options: QueryOptions = {}): Promise<VerifyResponse> {
    const reply = await this.#request({ type: "verify", request }, options);
    if (reply.type === "verified") return reply.response;
    throw this.#unexpected(reply.type, "verify");
  }

  async #request(envelope: object, options: QueryOptions): Promise<CgpReplyEnvelope> {
    if (this.#shutdown !== undefined || this.#closed) {
      throw httpError("closed", `provider "${this.id}" was shut down`);
    }
    const timeoutMs = positiveLimit("timeoutMs", options.timeoutMs, this.#limits.request);
    const reply = await this.#post(JSON.stringify(envelope), timeoutMs, options.signal);
    const decoded = decodeCgpEnvelope(reply.value);
    if (!decoded.ok) {
      throw httpError(
        "malformed_reply",
        `provider "${this.id}" answered an invalid envelope: ${decoded.error}`,
        {
          status: reply.status,
        },
      );
    }
    const envelopeIn = decoded.envelope as CgpReplyEnvelope;
    if (envelopeIn.type === "error") throw cgpRemoteError(envelopeIn, this.id, httpError);
    return envelopeIn;
  }

  #unexpected(type: string, asked: string): HttpError {
    return httpError(
      "malformed_reply",
      `provider "${this.id}" answered a ${asked} with "${type}"`,
      { type },
    );
  }

  /** POSTs one body; the reply's JSON value, or a typed error (never naming the token). */
  async #post(
    body: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<{ status: number; value: unknown }> {
    if (signal?.aborted) throw this.#failures.aborted(signal);
    const exchange = new Exchange(
      this.#deadlines,
      timeoutMs,
      this.#limits.body,
      this.#failures,
      signal,
    );
    let reply: { status: number; text: string };
    try {
      this.#pool.dispatch(
        {
          path: this.#path,
          method: "POST",
          headers: this.#headers,
          body,
          headersTimeout: timeoutMs + 1_000,
          bodyTimeout: timeoutMs + 1_000,
        },
        exchange,
      );
      reply = await exchange.promise;
    } catch (error) {
      if (isOcpError(error)) throw error;
      const code = (error as { code?: unknown } | undefined)?.code;
      if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") {
        throw this.#failures.timeout(timeoutMs);
      }
      // Only the origin and the error code: nothing of the request (C8).
      throw httpError(
        "connection_failed",
        `cannot reach provider "${this.id}" at ${this.#origin}${typeof code === "string" ? ` (${code})` : ""}`,
        { origin: this.#origin, ...(typeof code === "string" ? { cause: code } : {}) },
      );
    }
    const { status, text } = reply;
    const json = parseJsonFast(text);
    if (status === 401 || status === 403) {
      throw httpError(
        "unauthorized",
        `provider "${this.id}" refused the credentials (HTTP ${status})`,
        { status },
      );
    }
    if (!json.ok) {
      const excerpt =
        text.length <= BODY_EXCERPT_CHARS ? text : `${text.slice(0, BODY_EXCERPT_CHARS)}…`;
      throw httpError(
        status >= 200 && status <= 299 ? "malformed_reply" : "http_status",
        `provider "${this.id}" answered HTTP ${status} with a body that is not JSON`,
        { status, body: excerpt },
      );
    }
    return { status, value: json.value };
  }

  readonly #failures: ExchangeFailures = {
    tooLarge: (status) =>
      httpError(
        "body_too_large",
        `provider "${this.id}" answered a body over ${this.#limits.body} bytes`,
        {
          limit: this.#limits.body,
          status,
        },
      ),
    timeout: (timeoutMs) =>
      httpError("timeout", `provider "${this.id}" did not answer within ${timeoutMs} ms`, {
        timeoutMs,
      }),
    aborted: (signal) =>
      httpError("aborted", `query to provider "${this.id}" was aborted`, {}, signal.reason),
  };

  shutdown(): Promise<void> {
    this.#shutdown ??= this.#post(JSON.stringify({ type: "shutdown" }), this.#limits.request)
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => this.close());
    return this.#shutdown;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#pool.close();
  }
}
