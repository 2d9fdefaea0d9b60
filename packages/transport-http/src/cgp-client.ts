import type { QueryOptions } from "@ocp/types";
import {
  type CgpHandshakeAck as Ack,
  CGP_PROTOCOL_VERSION,
  type CgpReplyEnvelope,
  cgpRemoteError,
  checkCgpAck,
  decodeCgpEnvelope,
  type CgpQuery as Query,
  type CgpQueryResult as Result,
  type CgpVerifyRequest as VerifyRequest,
  type CgpVerifyResponse as VerifyResponse,
} from "@ocp/types/cgp";
import { parseJsonFast } from "@ocp/types/fast";
import { httpError } from "./errors.js";
import { type ConnectHttpProviderOptions, excerpt, PostPath } from "./post-path.js";
import { checkProviderUrl } from "./url.js";

/**
 * How to reach a remote `contextgraph/1` provider: the options of
 * `connectHttpProvider`. C7: `http://` to a loopback host only. C8: the
 * bearer token is never logged, never in an error.
 */
export type ConnectCgpHttpProviderOptions = ConnectHttpProviderOptions;

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
  readonly #path: PostPath;
  #ack: Ack | undefined;
  #shutdown: Promise<void> | undefined;

  constructor(options: ConnectCgpHttpProviderOptions, url: URL) {
    this.id = options.id;
    this.#path = new PostPath(options, url, CGP_PROTOCOL_VERSION);
    this.url = this.#path.endpoint;
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
      this.#path.limits.handshake,
    );
    const checked = checkCgpAck(reply.value, this.id, httpError);
    if (!checked.ok) throw checked.error;
    this.#ack = checked.ack;
  }

  async query(query: Query, options: QueryOptions = {}): Promise<Result> {
    const reply = await this.#request({ type: "query", query }, options);
    if (reply.type === "frames") return reply.result;
    throw this.#path.unexpected(reply.type, "query");
  }

  async verify(request: VerifyRequest, options: QueryOptions = {}): Promise<VerifyResponse> {
    const reply = await this.#request({ type: "verify", request }, options);
    if (reply.type === "verified") return reply.response;
    throw this.#path.unexpected(reply.type, "verify");
  }

  async #request(envelope: object, options: QueryOptions): Promise<CgpReplyEnvelope> {
    this.#path.assertOpen(this.#shutdown !== undefined);
    const timeoutMs = this.#path.timeoutOf(options.timeoutMs);
    const reply = await this.#post(JSON.stringify(envelope), timeoutMs, options.signal);
    const decoded = decodeCgpEnvelope(reply.value);
    if (!decoded.ok) {
      throw httpError(
        "malformed_reply",
        `provider "${this.id}" answered an invalid envelope: ${decoded.error}`,
        {
          details: {
            status: reply.status,
          },
        },
      );
    }
    const envelopeIn = decoded.envelope as CgpReplyEnvelope;
    if (envelopeIn.type === "error") throw cgpRemoteError(envelopeIn, this.id, httpError);
    return envelopeIn;
  }

  /** POSTs one body; the reply's JSON value, or a typed error (never naming the token). */
  async #post(
    body: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<{ status: number; value: unknown }> {
    const { status, text } = await this.#path.post(body, timeoutMs, signal);
    const json = parseJsonFast(text);
    if (status === 401 || status === 403) throw this.#path.unauthorized(status);
    if (!json.ok) {
      throw httpError(
        status >= 200 && status <= 299 ? "malformed_reply" : "http_status",
        `provider "${this.id}" answered HTTP ${status} with a body that is not JSON`,
        { details: { status, body: excerpt(text) } },
      );
    }
    return { status, value: json.value };
  }

  shutdown(): Promise<void> {
    this.#shutdown ??= this.#path.shutdown(JSON.stringify({ type: "shutdown" }));
    return this.#shutdown;
  }

  close(): Promise<void> {
    return this.#path.close();
  }
}
