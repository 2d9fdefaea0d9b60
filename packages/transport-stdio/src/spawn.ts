import {
  type Capabilities,
  type ContextProvider,
  type ContextQuery,
  type ContextQueryResult,
  type Envelope,
  EXTENSIONS,
  EXTENSIONS_ENV,
  encodeLine,
  PROTOCOL_VERSION,
  type ProviderInfo,
  type QueryOptions,
  toWire,
  versionsCompatible,
} from "@ocp/types";
import { decodeLineFast, encodeQueryJson, writeQueryLine } from "@ocp/types/fast";
import { ChildProvider } from "./child-provider.js";
import type { ChildExit, HandshakeVerdict, SpawnStdioProviderOptions } from "./child-session.js";
import { fromErrorEnvelope, stdioError } from "./errors.js";

export type { ChildExit, SpawnStdioProviderOptions } from "./child-session.js";

/** A provider child seen as a {@link ContextProvider}. */
export interface StdioProvider extends ContextProvider {
  readonly protocolVersion: string;
  readonly pid: number;
  /** Whether queries are pipelined with ids (`capabilities.correlation`). */
  readonly correlated: boolean;
  /** The latest bytes of the child's stderr (at most `maxStderrBytes`). */
  stderr(): string;
  /** Settles once the child has exited and its process group is killed. */
  readonly exited: Promise<ChildExit>;
}

/**
 * Spawns a provider child in its own process group with a scrubbed
 * environment and resolves once it has answered the handshake with a version
 * of our family (H3: otherwise `incompatible_version`, and the child is
 * killed). Every failure is an `OcpError` (see the README).
 */
export async function spawnStdioProvider(
  options: SpawnStdioProviderOptions,
): Promise<StdioProvider> {
  const connection = new StdioConnection(options);
  await connection.handshake();
  return connection;
}

class StdioConnection extends ChildProvider<Envelope, ContextQueryResult> implements StdioProvider {
  #info: ProviderInfo | undefined;
  #capabilities: Capabilities | undefined;
  #version = "";

  constructor(options: SpawnStdioProviderOptions) {
    // OCP_EXTENSIONS asks for our extensions out of band: the handshake stays the reference's.
    super({ ...options, env: { [EXTENSIONS_ENV]: EXTENSIONS.join(","), ...options.env } });
  }

  get info(): ProviderInfo {
    return this.#info!;
  }

  get capabilities(): Capabilities {
    return this.#capabilities!;
  }

  get protocolVersion(): string {
    return this.#version;
  }

  handshake(): Promise<void> {
    return this.session.handshake(
      encodeLine({ type: "handshake", protocol_version: PROTOCOL_VERSION }),
      (reply) => this.#checkAck(reply),
    );
  }

  #checkAck(reply: Envelope): HandshakeVerdict {
    if (reply.type === "error") return fromErrorEnvelope(reply, this.id);
    if (reply.type !== "handshake_ack") {
      return this.session.unexpected(reply.type, `answered the handshake with "${reply.type}"`);
    }
    if (!versionsCompatible(PROTOCOL_VERSION, reply.protocol_version)) {
      return stdioError(
        "incompatible_version",
        `provider "${this.id}" speaks ${reply.protocol_version}, not a version of the family of ${PROTOCOL_VERSION} (H3)`,
        { details: { ours: PROTOCOL_VERSION, theirs: reply.protocol_version } },
      );
    }
    this.#info = reply.provider;
    this.#capabilities = reply.capabilities;
    this.#version = reply.protocol_version;
    return { correlated: reply.capabilities.correlation === true };
  }

  query(query: ContextQuery, options: QueryOptions = {}): Promise<ContextQueryResult> {
    return this.session.request(options, () => {
      const payload =
        encodeQueryJson(query) ?? JSON.stringify(toWire({ type: "query", query }).query);
      // The envelope around the encoded query, written from the envelope schema's member order.
      return (id) => writeQueryLine(id, payload);
    });
  }

  shutdown(): Promise<void> {
    return this.session.shutdown(encodeLine({ type: "shutdown" }));
  }

  protected onLine(line: string): void {
    const session = this.session;
    const decoded = decodeLineFast(line);
    const queries = session.requests;
    if (queries === undefined) {
      session.handshakeReply(
        decoded.ok ? decoded : { ok: false, error: this.#malformed(decoded.error) },
      );
      return;
    }
    if (!decoded.ok) {
      queries.rejectUnattributed(this.#malformed(decoded.error));
      return;
    }
    const envelope = decoded.value;
    const id = session.correlated && "id" in envelope ? envelope.id : undefined;
    if (envelope.type === "frames") {
      queries.resolve(id, envelope.result);
    } else if (envelope.type === "error") {
      const error = fromErrorEnvelope(envelope, this.id);
      if (session.correlated && id === undefined) queries.rejectUnattributed(error);
      else queries.reject(id, error);
    } else {
      queries.rejectUnattributed(
        session.unexpected(envelope.type, `sent "${envelope.type}" where a reply was due`),
      );
    }
  }

  #malformed(cause: Error & { code: string }) {
    return this.session.malformed(cause.message, cause.code, cause);
  }
}
