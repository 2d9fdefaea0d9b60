import type { QueryOptions } from "@ocp/types";
import {
  type CgpHandshakeAck as Ack,
  CGP_PROTOCOL_VERSION,
  type CgpReplyEnvelope,
  cgpRemoteError,
  checkCgpAck,
  decodeCgpLine,
  type CgpQuery as Query,
  type CgpQueryResult as Result,
  type CgpVerifyRequest as VerifyRequest,
  type CgpVerifyResponse as VerifyResponse,
} from "@ocp/types/cgp";
import { ChildProvider } from "./child-provider.js";
import type { ChildExit, SpawnStdioProviderOptions } from "./child-session.js";
import { type StdioError, stdioError } from "./errors.js";

/** How to start a `contextgraph/1` provider child: the options of `spawnStdioProvider`. */
export type SpawnCgpStdioProviderOptions = SpawnStdioProviderOptions;

/** A `contextgraph/1` provider child: the CGP session the host drives. */
export interface CgpStdioProvider {
  readonly id: string;
  readonly pid: number;
  readonly family: "contextgraph/1";
  readonly protocolVersion: string;
  readonly info: Ack["provider"];
  readonly capabilities: Ack["capabilities"];
  /** H4: ids are sent (and must be echoed) only when the provider declared `correlation`. */
  readonly correlated: boolean;
  query(query: Query, options?: QueryOptions): Promise<Result>;
  /** §9: frame identities only, never bodies (V1); sent only when `capabilities.verify`. */
  verify(request: VerifyRequest, options?: QueryOptions): Promise<VerifyResponse>;
  shutdown(): Promise<void>;
  stderr(): string;
  readonly exited: Promise<ChildExit>;
}

/**
 * Spawns a provider child (own process group, scrubbed environment, as
 * `spawnStdioProvider`) and handshakes in `contextgraph/1.0-draft`. A
 * provider answering with another family, or refusing with
 * `incompatible_version`, fails with `incompatible_version` (H1, H3) and is
 * killed. Every reply is decoded by the CGP interop path (U1, U2).
 */
export async function spawnCgpStdioProvider(
  options: SpawnCgpStdioProviderOptions,
): Promise<CgpStdioProvider> {
  const connection = new CgpStdioConnection(options);
  await connection.handshake();
  return connection;
}

class CgpStdioConnection
  extends ChildProvider<unknown, CgpReplyEnvelope>
  implements CgpStdioProvider
{
  readonly family = "contextgraph/1" as const;
  #ack: Ack | undefined;
  get protocolVersion(): string {
    return this.#ack?.protocol_version ?? CGP_PROTOCOL_VERSION;
  }
  get info(): Ack["provider"] {
    return this.#ack!.provider;
  }
  get capabilities(): Ack["capabilities"] {
    return this.#ack!.capabilities;
  }

  handshake(): Promise<void> {
    return this.session.handshake(
      `${JSON.stringify({ type: "handshake", protocol_version: CGP_PROTOCOL_VERSION })}\n`,
      (reply) => {
        const checked = checkCgpAck(reply, this.id, stdioError);
        if (!checked.ok) return checked.error as StdioError;
        this.#ack = checked.ack;
        return { correlated: checked.ack.capabilities.correlation === true };
      },
    );
  }

  query(query: Query, options: QueryOptions = {}): Promise<Result> {
    return this.#request("query", { query }, options).then((reply) => {
      if (reply.type === "frames") return reply.result;
      throw this.#unexpected(reply.type, "query");
    });
  }

  verify(request: VerifyRequest, options: QueryOptions = {}): Promise<VerifyResponse> {
    return this.#request("verify", { request }, options).then((reply) => {
      if (reply.type === "verified") return reply.response;
      throw this.#unexpected(reply.type, "verify");
    });
  }

  /** §3.2: an id only to a provider that declared correlation. */
  #request(
    type: "query" | "verify",
    body: object,
    options: QueryOptions,
  ): Promise<CgpReplyEnvelope> {
    return this.session.request(
      options,
      () => (id) => `${JSON.stringify({ type, ...(id === undefined ? {} : { id }), ...body })}\n`,
    );
  }

  #unexpected(type: string, asked: string): StdioError {
    return this.session.unexpected(type, `answered a ${asked} with "${type}"`);
  }

  shutdown(): Promise<void> {
    return this.session.shutdown(`${JSON.stringify({ type: "shutdown" })}\n`);
  }

  protected onLine(line: string): void {
    const session = this.session;
    const requests = session.requests;
    if (requests === undefined) {
      // The handshake reply is judged whole (another family's ack is H3, not garbage).
      try {
        session.handshakeReply({ ok: true, value: JSON.parse(line) });
      } catch (cause) {
        session.handshakeReply({
          ok: false,
          error: session.malformed("not JSON", "not JSON", cause),
        });
      }
      return;
    }
    const decoded = decodeCgpLine(line);
    if (!decoded.ok) {
      requests.rejectUnattributed(session.malformed(decoded.error, decoded.error));
      return;
    }
    const envelope = decoded.envelope;
    const id = session.correlated ? (envelope as { id?: string }).id : undefined;
    if (envelope.type === "frames" || envelope.type === "verified") {
      requests.resolve(id, envelope as CgpReplyEnvelope);
    } else if (envelope.type === "error") {
      const error = cgpRemoteError(envelope, this.id, stdioError);
      if (session.correlated && id === undefined) requests.rejectUnattributed(error);
      else requests.reject(id, error);
    } else {
      requests.rejectUnattributed(this.#unexpected(envelope.type, "request"));
    }
  }
}
