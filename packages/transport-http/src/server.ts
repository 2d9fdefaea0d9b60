import { createHash, timingSafeEqual } from "node:crypto";
import {
  type ContextProvider,
  type ContextQueryResult,
  type EnvelopeInit,
  EXTENSIONS_HEADER,
  type Extension,
  encodeJson,
  familyOfVersion,
  forPeer,
  isOcpError,
  PROTOCOL_VERSION,
  type ProtocolFamily,
  type QueryOptions,
  readExtensions,
  readWireErrorCode,
  versionsCompatible,
  type WireErrorCode,
} from "@ocp/types";
import {
  decodeEnvelopeFast,
  encodeFramesLine,
  isPlainResult,
  parseJsonFast,
  writeFramesLine,
} from "@ocp/types/fast";
import { parseJsonText } from "@ocp/types/internal";
import {
  type CgpReply,
  CgpResponder,
  type DualProvider,
  encodeCgp,
  guardAnswer,
  guardResult,
} from "@ocp/types/kit";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { PROTOCOL_VERSION_HEADER } from "./headers.js";
import { MAX_BODY_BYTES, MAX_FAMILY_PEERS, positiveLimit, REQUEST_TIMEOUT_MS } from "./limits.js";

export interface HttpProviderServerOptions {
  /** The endpoint path; default `/`. */
  readonly path?: string;
  /** When set, every request must carry `Authorization: Bearer <token>` (else 401). */
  readonly token?: string;
  /** Largest request body; larger gets 413. Default {@link MAX_BODY_BYTES}. */
  readonly maxBodyBytes?: number;
  /** Server-side bound on receiving a whole request. Default {@link REQUEST_TIMEOUT_MS}. */
  readonly requestTimeoutMs?: number;
  /**
   * What a `shutdown` envelope does. `"stop"` (default): answer it, tear the
   * provider down and refuse every later request with `shutting_down` (one
   * host per server, R2). `"acknowledge"`: answer it and keep serving, for a
   * server that many hosts share: one host leaving says nothing about the
   * others, so the provider is not torn down.
   */
  readonly onShutdown?: "stop" | "acknowledge";
  /** Diagnostics (a failing `provider.shutdown()`); default one line on stderr. Requests are not logged. */
  readonly log?: (message: string) => void;
  /** The provider kit's guard rail on every answer, as `serveStdio`'s: `fix` (default), `refuse` or `off`. */
  readonly guard?: "fix" | "refuse" | "off";
  /**
   * The families served, as `serveStdio`'s: default both. A request is of
   * the family its {@link PROTOCOL_VERSION_HEADER} header names; without the
   * header, of the family of the last handshake from the same address (a
   * handshake is of the family of the version it offers); with neither,
   * `ocp/1`.
   */
  readonly families?: readonly ProtocolFamily[];
}

export interface HttpProviderServer {
  /** The fastify instance, to embed or to `inject` requests in. */
  readonly app: FastifyInstance;
  /** Starts listening (default 127.0.0.1, a free port); resolves with the endpoint URL. */
  listen(options?: { host?: string; port?: number }): Promise<string>;
  /** Stops listening and ends every connection, requests in flight included. */
  close(): Promise<void>;
  /**
   * Settles once a `shutdown` envelope has been answered and (with
   * `onShutdown: "stop"`) the provider torn down (R2).
   */
  readonly shutdownRequested: Promise<void>;
}

/**
 * Answers the HTTP status and one envelope, as the peer may see it: an
 * extension only when the request asked for it (the {@link EXTENSIONS_HEADER}
 * header, or `extensions` on a handshake).
 */
function answer(reply: FastifyReply, status: number, envelope: EnvelopeInit): FastifyReply {
  const request = reply.request;
  const body = request.body;
  let asked: unknown[] = String(request.headers[EXTENSIONS_HEADER] ?? "").split(",");
  if (typeof body === "string" && body.includes('"extensions"')) {
    const json = parseJsonText(body);
    const listed = json.ok
      ? (json.value as { extensions?: unknown } | null)?.extensions
      : undefined;
    if (Array.isArray(listed)) asked = [...asked, ...listed];
  }
  const peer: ReadonlySet<Extension> = readExtensions(asked);
  return reply
    .code(status)
    .type(JSON_TYPE)
    .send(encodeJson(forPeer(envelope, peer)));
}

const JSON_TYPE = "application/json; charset=utf-8";

/**
 * The query options of one request: its `signal` aborts once the client goes
 * away before the answer is sent. Made on first read: a provider that never
 * looks at its signal costs no controller and no listener per request. An
 * own enumerable getter, so that `{ ...options }` carries the signal on.
 */
function abandonOptions(request: FastifyRequest, reply: FastifyReply): QueryOptions {
  let controller: AbortController | undefined;
  return {
    get signal(): AbortSignal {
      if (controller === undefined) {
        const made = new AbortController();
        controller = made;
        const response = reply.raw;
        // The response closes before it is finished only when the client went away.
        const goneAway = () => made.abort(new Error("client went away"));
        if (request.raw.socket.destroyed) goneAway();
        else {
          response.once("close", () => {
            if (!response.writableFinished) goneAway();
          });
        }
      }
      return controller.signal;
    },
  };
}

function failure(code: WireErrorCode, message: string, id?: string): EnvelopeInit {
  return { type: "error", id, code, message };
}

function tokenCheck(token: string | undefined): (header: string | undefined) => boolean {
  if (token === undefined) return () => true;
  const expected = createHash("sha256").update(`Bearer ${token}`).digest();
  return (header) =>
    header !== undefined && timingSafeEqual(createHash("sha256").update(header).digest(), expected);
}

/**
 * Serves `provider` over HTTP: one envelope per POST body, one envelope per
 * response. Protocol answers (acks, frames, `error` envelopes of the
 * provider) are 200; transport failures are 4xx/5xx with an `error`
 * envelope: 400 invalid body, 401 missing or wrong token, 404 other path,
 * 413 body too large, 415 not JSON, 503 after shutdown (R2).
 *
 * Each request is answered in one family (see `families`): `ocp/1` as
 * above, `contextgraph/1` through the provider kit's `CgpResponder`.
 *
 * @throws {OcpError} `invalid_provider` when the provider's CGP declarations
 *   break a handshake rule (C5 …): the server is never created.
 */
export function createHttpProviderServer(
  provider: ContextProvider | DualProvider,
  options: HttpProviderServerOptions = {},
): HttpProviderServer {
  const path = options.path ?? "/";
  const bodyLimit = positiveLimit("maxBodyBytes", options.maxBodyBytes, MAX_BODY_BYTES);
  const authorized = tokenCheck(options.token);
  const version = provider.protocolVersion ?? PROTOCOL_VERSION;
  const guard = options.guard ?? "fix";
  const app = Fastify({
    bodyLimit,
    requestTimeout: positiveLimit("requestTimeoutMs", options.requestTimeoutMs, REQUEST_TIMEOUT_MS),
    logger: false,
    // close() ends every connection at once, kept-alive or half-closed ones included.
    forceCloseConnections: true,
  });
  const log =
    options.log ?? ((message: string) => process.stderr.write(`[ocp ${provider.id}] ${message}\n`));
  const guardOptions = { declaredKinds: provider.capabilities.query.kinds, warn: log };
  /** The same with the mode, built once (a spread per answer costs microseconds here). */
  const guardModeOptions = {
    ...guardOptions,
    mode: guard === "refuse" ? "refuse" : "fix",
  } as const;
  const families = options.families ?? ["ocp/1", "contextgraph/1"];
  /** The CGP side; built now, so a provider whose declarations break C5 never starts. */
  const cgp = families.includes("contextgraph/1")
    ? new CgpResponder(provider, { mode: guard, warn: log })
    : undefined;
  /** The family of the last handshake from each address, the oldest forgotten first. */
  const peers = new Map<string, ProtocolFamily>();
  const familyOf = (request: FastifyRequest, value: unknown): ProtocolFamily | undefined => {
    const envelope = value as { type?: unknown; protocol_version?: unknown } | null;
    if (envelope !== null && typeof envelope === "object" && envelope.type === "handshake") {
      const version = String(envelope.protocol_version);
      const family = familyOfVersion(version);
      if (family !== undefined) {
        peers.delete(request.ip);
        peers.set(request.ip, family);
        if (peers.size > MAX_FAMILY_PEERS) peers.delete(peers.keys().next().value as string);
      }
      // A contextgraph/ version of a major we do not speak is refused the CGP way, code and all.
      return version.startsWith("contextgraph/") ? "contextgraph/1" : family;
    }
    const header = request.headers[PROTOCOL_VERSION_HEADER];
    if (typeof header === "string") return familyOfVersion(header);
    return peers.get(request.ip);
  };
  const sendCgp = (reply: FastifyReply, status: number, envelope: CgpReply): FastifyReply =>
    reply.code(status).type(JSON_TYPE).send(encodeCgp(envelope));
  /** One request of a host that speaks `contextgraph/1`. */
  const answerCgp = async (
    responder: CgpResponder,
    request: FastifyRequest,
    reply: FastifyReply,
    value: unknown,
  ): Promise<FastifyReply> => {
    const read = responder.read(value);
    switch (read.type) {
      case "handshake":
        return sendCgp(reply, 200, responder.handshake(read.version));
      case "query":
        return sendCgp(
          reply,
          200,
          await responder.query(read.query, read.id, abandonOptions(request, reply).signal),
        );
      case "verify":
        return sendCgp(
          reply,
          200,
          await responder.verify(read.frames, read.id, abandonOptions(request, reply).signal),
        );
      case "shutdown":
        return shutdown(reply);
      case "ignore":
        // §2.1: a notification gets no envelope; HTTP still owes a response.
        return reply.code(204).send();
      default:
        return sendCgp(reply, 400, {
          type: "error",
          id: read.id,
          code: read.code,
          message: read.message,
        });
    }
  };
  let shuttingDown = false;
  let resolveShutdown!: () => void;
  const shutdownRequested = new Promise<void>((resolve) => {
    resolveShutdown = resolve;
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    "application/json",
    { parseAs: "string", bodyLimit },
    (_req, body, done) => done(null, body),
  );
  app.addContentTypeParser("*", { parseAs: "string", bodyLimit }, (_req, _body, done) =>
    done(null, undefined),
  );

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, _request, reply) => {
    const status =
      error.statusCode !== undefined && error.statusCode >= 400 ? error.statusCode : 500;
    const code: WireErrorCode = status >= 500 ? "internal" : "bad_request";
    const message =
      error.code === "FST_ERR_CTP_BODY_TOO_LARGE" ? `body over ${bodyLimit} bytes` : error.message;
    return answer(reply, status, failure(code, message));
  });
  app.setNotFoundHandler((request, reply) =>
    answer(
      reply,
      404,
      failure("bad_request", `no OCP endpoint at ${request.method} ${request.url}`),
    ),
  );

  app.post(path, async (request: FastifyRequest, reply: FastifyReply) => {
    if (!authorized(request.headers.authorization)) {
      reply.header("www-authenticate", "Bearer");
      return answer(reply, 401, failure("bad_request", "missing or wrong bearer token"));
    }
    if (shuttingDown) return answer(reply, 503, failure("shutting_down", "provider is shut down"));
    if (typeof request.body !== "string") {
      return answer(reply, 415, failure("bad_request", "the body must be application/json"));
    }
    const json = parseJsonFast(request.body);
    if (!json.ok) {
      return answer(
        reply,
        400,
        failure("bad_request", `the body is not I-JSON: ${json.error.message}`),
      );
    }
    if (cgp !== undefined && familyOf(request, json.value) === "contextgraph/1") {
      return answerCgp(cgp, request, reply, json.value);
    }
    const decoded = decodeEnvelopeFast(json.value);
    if (!decoded.ok) return answer(reply, 400, failure("bad_request", decoded.error.message));
    const envelope = decoded.value;
    switch (envelope.type) {
      case "handshake":
        if (!versionsCompatible(version, envelope.protocol_version)) {
          return answer(
            reply,
            200,
            failure(
              "incompatible_version",
              `this provider speaks ${version}, not ${envelope.protocol_version}`,
            ),
          );
        }
        return answer(reply, 200, {
          type: "handshake_ack",
          protocol_version: version,
          provider: provider.info,
          capabilities: provider.capabilities,
        });
      case "query": {
        try {
          const raw = await provider.query(envelope.query, abandonOptions(request, reply));
          let result: ContextQueryResult;
          let line: string | undefined;
          // The body without the encoder's schema pass, byte for byte what encodeJson writes.
          if (guard !== "off" && isPlainResult(raw)) {
            // Checked once: an answer that keeps every rule comes back from the guard as it is.
            result = guardResult(envelope.query, raw, guardModeOptions);
            line =
              result === raw
                ? writeFramesLine(envelope.id, raw)
                : encodeFramesLine(envelope.id, result);
          } else {
            result = guardAnswer(envelope.query, raw, guard, guardOptions) as ContextQueryResult;
            line = encodeFramesLine(envelope.id, result);
          }
          if (line === undefined)
            return answer(reply, 200, { type: "frames", id: envelope.id, result });
          return reply.code(200).type(JSON_TYPE).send(line.slice(0, -1));
        } catch (error) {
          const code = isOcpError(error) ? readWireErrorCode(error.code) : "internal";
          const message = error instanceof Error && error.message !== "" ? error.message : code;
          return answer(reply, 200, failure(code, message, envelope.id));
        }
      }
      case "shutdown":
        return shutdown(reply);
      default:
        return answer(
          reply,
          400,
          failure("bad_request", `a provider does not accept "${envelope.type}"`),
        );
    }
  });

  /** R2: answers a `shutdown` (the same envelope in both families) and, with `stop`, tears down. */
  function shutdown(reply: FastifyReply): FastifyReply {
    if (options.onShutdown === "acknowledge") {
      resolveShutdown();
      return answer(reply, 200, { type: "shutdown" });
    }
    shuttingDown = true;
    answer(reply, 200, { type: "shutdown" });
    void reply.then(
      () => tearDown(),
      () => tearDown(),
    );
    return reply;
  }

  const tearDown = (): void => {
    provider.shutdown().then(resolveShutdown, (error: unknown) => {
      log(`provider.shutdown() failed: ${error instanceof Error ? error.message : String(error)}`);
      resolveShutdown();
    });
  };

  return {
    app,
    shutdownRequested,
    async listen(listenOptions = {}) {
      const address = await app.listen({
        host: listenOptions.host ?? "127.0.0.1",
        port: listenOptions.port ?? 0,
      });
      return new URL(path, address).toString();
    },
    close: () => app.close(),
  };
}
