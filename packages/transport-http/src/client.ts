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
import { fromErrorEnvelope, httpError } from "./errors.js";
import { type ConnectHttpProviderOptions, excerpt, PostPath } from "./post-path.js";
import { checkProviderUrl } from "./url.js";

export type { ConnectHttpProviderOptions } from "./post-path.js";

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
  readonly path: PostPath;

  constructor(options: ConnectHttpProviderOptions, url: URL) {
    this.id = options.id;
    this.path = new PostPath(options, url, PROTOCOL_VERSION, {
      // Our extensions, asked for out of band: the envelopes stay the reference's (X-CORR, X-CODE).
      [EXTENSIONS_HEADER]: EXTENSIONS.join(","),
    });
  }

  async handshake(): Promise<HttpProvider> {
    const reply = await this.exchange(
      { type: "handshake", protocol_version: PROTOCOL_VERSION },
      this.path.limits.handshake,
    );
    if (reply.type === "error") throw fromErrorEnvelope(reply, this.id);
    if (reply.type !== "handshake_ack") {
      throw httpError(
        "malformed_reply",
        `provider "${this.id}" answered the handshake with "${reply.type}"`,
        {
          details: {
            type: reply.type,
          },
        },
      );
    }
    if (!versionsCompatible(PROTOCOL_VERSION, reply.protocol_version)) {
      throw httpError(
        "incompatible_version",
        `provider "${this.id}" speaks ${reply.protocol_version}, not a version of the family of ${PROTOCOL_VERSION} (H3)`,
        { details: { ours: PROTOCOL_VERSION, theirs: reply.protocol_version } },
      );
    }
    return new RemoteProvider(this, {
      info: reply.provider,
      capabilities: reply.capabilities,
      version: reply.protocol_version,
    });
  }

  /** POSTs one envelope and returns the one envelope answered, or a typed error. */
  async exchange(
    envelope: EnvelopeInit,
    timeoutMs: number,
    signal?: AbortSignal,
    traceparent?: string,
  ): Promise<Envelope> {
    if (signal?.aborted) throw this.path.failures.aborted(signal);
    // A plain query leaves without the encoder's schema pass, byte for byte the same.
    const plain =
      envelope.type === "query" && envelope.id === undefined
        ? encodeQueryJson(envelope.query as ContextQuery)
        : undefined;
    const body = plain === undefined ? encodeJson(envelope) : writeQueryJson(undefined, plain);
    const reply = await this.path.post(body, timeoutMs, signal, traceparent);
    return this.#envelopeOf(reply.status, reply.text);
  }

  #envelopeOf(status: number, text: string): Envelope {
    const json = parseJsonFast(text);
    const decoded = json.ok ? decodeEnvelopeFast(json.value) : undefined;
    const envelope = decoded?.ok ? decoded.value : undefined;
    const wire =
      envelope?.type === "error" ? { code: envelope.code, message: envelope.message } : {};
    if (status === 401 || status === 403) throw this.path.unauthorized(status, wire);
    if (status < 200 || status > 299) {
      throw httpError("http_status", `provider "${this.id}" answered HTTP ${status}`, {
        details: {
          status,
          ...wire,
          ...(envelope === undefined ? { body: excerpt(text) } : {}),
        },
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
          details: {
            status,
            reason,
            body: excerpt(text),
          },
        },
      );
    }
    return envelope;
  }

  close(): Promise<void> {
    return this.path.close();
  }
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
    this.url = client.path.endpoint;
    this.declaredInfo = session.info;
    // C4: whatever it declares, a remote provider is egress.
    this.info = { ...session.info, data_flow: { ...session.info.data_flow, egress: true } };
    this.capabilities = session.capabilities;
    this.protocolVersion = session.version;
  }

  async query(query: ContextQuery, options: QueryOptions = {}): Promise<ContextQueryResult> {
    const path = this.#client.path;
    path.assertOpen(this.#shutdown !== undefined);
    const timeoutMs = path.timeoutOf(options.timeoutMs);
    const { signal, traceparent } = options;
    const reply = await this.#client.exchange(
      { type: "query", query },
      timeoutMs,
      signal,
      traceparent,
    );
    if (reply.type === "frames") return reply.result;
    if (reply.type === "error") throw fromErrorEnvelope(reply, this.id);
    throw path.unexpected(reply.type, "query");
  }

  /**
   * R2: tells the provider to tear down, then closes the connections once
   * queries in flight are answered. Bounded by the request timeout; a
   * provider already gone is not an error (there is nothing left to tear down).
   */
  shutdown(): Promise<void> {
    this.#shutdown ??= this.#client.path.shutdown(encodeJson({ type: "shutdown" }));
    return this.#shutdown;
  }
}
