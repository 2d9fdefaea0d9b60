import {
  type Capabilities,
  type ContextProvider,
  type ContextQuery,
  type ContextQueryResult,
  type Envelope,
  type EnvelopeInit,
  EXTENSIONS,
  EXTENSIONS_HEADER,
  encodeJson,
  isOcpError,
  PROTOCOL_VERSION,
  type ProviderInfo,
  type QueryOptions,
  versionsCompatible,
} from "@ocp/types";
import {
  decodeEnvelopeFast,
  encodeQueryJson,
  parseJsonFast,
  writeQueryJson,
} from "@ocp/types/fast";
import { Deadlines } from "@ocp/types/internal";
import { Pool } from "undici";
import { fromErrorEnvelope, type HttpError, httpError } from "./errors.js";
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

/** A version-00 W3C `traceparent`: only this goes out as a header (never a CR or LF). */
const TRACEPARENT = /^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

export interface ConnectHttpProviderOptions {
  /** Host-chosen id of the provider. */
  readonly id: string;
  /** `https://...`, or `http://` to a loopback host only. The path is the endpoint. */
  readonly url: string | URL;
  /** Bearer token sent as `Authorization`; never logged, never in an error or `inspect`. */
  readonly token?: string;
  readonly requestTimeoutMs?: number;
  readonly handshakeTimeoutMs?: number;
  readonly maxBodyBytes?: number;
  readonly connections?: number;
  readonly keepAliveTimeoutMs?: number;
}

/** A remote provider seen as a {@link ContextProvider}. */
export interface HttpProvider extends ContextProvider {
  readonly protocolVersion: string;
  /** The endpoint (no credentials in it). */
  readonly url: string;
  /**
   * C4: `info` says `egress: true` whatever the provider declared; this is
   * what it declared.
   */
  readonly declaredInfo: ProviderInfo;
}

/**
 * Connects to a remote provider over HTTP and completes the handshake (H3:
 * a version of another family is `incompatible_version`). A plain-http URL
 * off loopback is refused before any byte leaves (`insecure_url`). Every
 * remote provider is egress (C4).
 */
export async function connectHttpProvider(
  options: ConnectHttpProviderOptions,
): Promise<HttpProvider> {
  const url = checkProviderUrl(options.url);
  if (url instanceof Error) throw url;
  const client = new HttpClient(options, url);
  try {
    return await client.handshake();
  } catch (error) {
    await client.close();
    throw error;
  }
}

/** What the handshake established; the provider object is built from it. */
interface Session {
  readonly info: ProviderInfo;
  readonly capabilities: Capabilities;
  readonly version: string;
}

class HttpClient {
  readonly id: string;
  readonly url: URL;
  readonly #path: string;
  readonly #pool: Pool;
  readonly #headers: Record<string, string>;
  readonly #limits: { request: number; handshake: number; body: number };
  /** One timer for every exchange in flight; it does not hold the process open (a request in flight does). */
  readonly #deadlines = new Deadlines({ holdsProcess: false });
  #closed = false;

  constructor(options: ConnectHttpProviderOptions, url: URL) {
    this.id = options.id;
    this.url = url;
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
      // Our extensions, asked for out of band: the envelopes stay the reference's (X-CORR, X-CODE).
      [EXTENSIONS_HEADER]: EXTENSIONS.join(","),
      // The session's family on every request: a server shared by hosts of both families answers each in its own.
      [PROTOCOL_VERSION_HEADER]: PROTOCOL_VERSION,
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
      headersTimeout: this.#limits.request,
      bodyTimeout: this.#limits.request,
      connect: { timeout: this.#limits.handshake },
    });
  }

  async handshake(): Promise<HttpProvider> {
    const reply = await this.exchange(
      { type: "handshake", protocol_version: PROTOCOL_VERSION },
      this.#limits.handshake,
    );
    if (reply.type === "error") throw fromErrorEnvelope(reply, this.id);
    if (reply.type !== "handshake_ack") {
      throw httpError(
        "malformed_reply",
        `provider "${this.id}" answered the handshake with "${reply.type}"`,
        {
          type: reply.type,
        },
      );
    }
    if (!versionsCompatible(PROTOCOL_VERSION, reply.protocol_version)) {
      throw httpError(
        "incompatible_version",
        `provider "${this.id}" speaks ${reply.protocol_version}, not a version of the family of ${PROTOCOL_VERSION} (H3)`,
        { ours: PROTOCOL_VERSION, theirs: reply.protocol_version },
      );
    }
    return new RemoteProvider(this, {
      info: reply.provider,
      capabilities: reply.capabilities,
      version: reply.protocol_version,
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  get requestTimeoutMs(): number {
    return this.#limits.request;
  }

  /** POSTs one envelope and returns the one envelope answered, or a typed error. */
  async exchange(
    envelope: EnvelopeInit,
    timeoutMs: number,
    signal?: AbortSignal,
    traceparent?: string,
  ): Promise<Envelope> {
    if (signal?.aborted) throw this.#aborted(signal);
    // A plain query leaves without the encoder's schema pass, byte for byte the same.
    const plain =
      envelope.type === "query" && envelope.id === undefined
        ? encodeQueryJson(envelope.query as ContextQuery)
        : undefined;
    const body = plain === undefined ? encodeJson(envelope) : writeQueryJson(undefined, plain);
    const exchange = new Exchange(
      this.#deadlines,
      timeoutMs,
      this.#limits.body,
      this.#failures,
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
      const reply = await exchange.promise;
      return this.#envelopeOf(reply.status, reply.text);
    } catch (error) {
      if (isOcpError(error)) throw error;
      const code = (error as { code?: unknown } | undefined)?.code;
      if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") {
        throw this.#failures.timeout(timeoutMs);
      }
      throw this.#transportError(error);
    }
  }

  readonly #failures: ExchangeFailures = {
    tooLarge: (status) =>
      httpError(
        "body_too_large",
        `provider "${this.id}" answered a body over ${this.#limits.body} bytes`,
        { limit: this.#limits.body, status },
      ),
    timeout: (timeoutMs) =>
      httpError("timeout", `provider "${this.id}" did not answer within ${timeoutMs} ms`, {
        timeoutMs,
      }),
    aborted: (signal) => this.#aborted(signal),
  };

  #envelopeOf(status: number, text: string): Envelope {
    const json = parseJsonFast(text);
    const decoded = json.ok ? decodeEnvelopeFast(json.value) : undefined;
    const envelope = decoded?.ok ? decoded.value : undefined;
    const wire =
      envelope?.type === "error" ? { code: envelope.code, message: envelope.message } : {};
    if (status === 401 || status === 403) {
      throw httpError(
        "unauthorized",
        `provider "${this.id}" refused the credentials (HTTP ${status})`,
        {
          status,
          ...wire,
        },
      );
    }
    if (status < 200 || status > 299) {
      throw httpError("http_status", `provider "${this.id}" answered HTTP ${status}`, {
        status,
        ...wire,
        ...(envelope === undefined ? { body: excerpt(text) } : {}),
      });
    }
    if (envelope === undefined) {
      const reason =
        text === ""
          ? "empty body"
          : json.ok
            ? "not an envelope"
            : json.error.details?.["duplicateKey"] === undefined
              ? "not JSON"
              : json.error.message;
      throw httpError(
        "malformed_reply",
        `provider "${this.id}" answered a body that is ${reason}`,
        {
          status,
          reason,
          body: excerpt(text),
        },
      );
    }
    return envelope;
  }

  #transportError(cause: unknown): HttpError {
    const code = (cause as { code?: unknown } | undefined)?.code;
    return httpError(
      "connection_failed",
      `cannot reach provider "${this.id}" at ${this.url.origin}${typeof code === "string" ? ` (${code})` : ""}`,
      { origin: this.url.origin, ...(typeof code === "string" ? { cause: code } : {}) },
    );
  }

  #aborted(signal: AbortSignal): HttpError {
    return httpError("aborted", `query to provider "${this.id}" was aborted`, {}, signal.reason);
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#pool.close();
  }
}

/** How much later than the deadline undici's own header and body timeouts fire. */
const UNDICI_SLACK_MS = 1_000;

function excerpt(text: string): string {
  return text.length <= BODY_EXCERPT_CHARS ? text : `${text.slice(0, BODY_EXCERPT_CHARS)}…`;
}

class RemoteProvider implements HttpProvider {
  readonly id: string;
  readonly url: string;
  readonly info: ProviderInfo;
  readonly declaredInfo: ProviderInfo;
  readonly capabilities: Capabilities;
  readonly protocolVersion: string;
  readonly #client: HttpClient;
  #shutdown: Promise<void> | undefined;

  constructor(client: HttpClient, session: Session) {
    this.#client = client;
    this.id = client.id;
    this.url = `${client.url.origin}${client.url.pathname}`;
    this.declaredInfo = session.info;
    // C4: whatever it declares, a remote provider is egress.
    this.info = { ...session.info, data_flow: { ...session.info.data_flow, egress: true } };
    this.capabilities = session.capabilities;
    this.protocolVersion = session.version;
  }

  async query(query: ContextQuery, options: QueryOptions = {}): Promise<ContextQueryResult> {
    if (this.#shutdown !== undefined || this.#client.closed) {
      throw httpError("closed", `provider "${this.id}" was shut down`);
    }
    const timeoutMs = positiveLimit("timeoutMs", options.timeoutMs, this.#client.requestTimeoutMs);
    const { signal, traceparent } = options;
    const reply = await this.#client.exchange(
      { type: "query", query },
      timeoutMs,
      signal,
      traceparent,
    );
    if (reply.type === "frames") return reply.result;
    if (reply.type === "error") throw fromErrorEnvelope(reply, this.id);
    throw httpError(
      "malformed_reply",
      `provider "${this.id}" answered a query with "${reply.type}"`,
      {
        type: reply.type,
      },
    );
  }

  /**
   * R2: tells the provider to tear down, then closes the connections once
   * queries in flight are answered. Bounded by the request timeout; a
   * provider already gone is not an error (there is nothing left to tear down).
   */
  shutdown(): Promise<void> {
    this.#shutdown ??= this.#client
      .exchange({ type: "shutdown" }, this.#client.requestTimeoutMs)
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => this.#client.close());
    return this.#shutdown;
  }
}
