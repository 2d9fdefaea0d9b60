/**
 * Serves an {@link OCPAgent} as an A2A agent on a real HTTP server, with the
 * SDK's server: its agent card at `/.well-known/agent-card.json`
 * (`AGENT_CARD_PATH`) and the A2A JSON-RPC endpoint at {@link A2A_RPC_PATH},
 * both through the SDK's express adapter, tasks handled by
 * {@link OcpAgentExecutor} through the SDK's `DefaultRequestHandler` and
 * `InMemoryTaskStore` (which keeps each caller's tasks apart).
 *
 * Every JSON-RPC request is authenticated before the SDK sees it
 * ({@link A2AAuthenticator}, options `auth`): without valid credentials it
 * is answered HTTP 401 with a JSON-RPC error
 * ({@link UNAUTHENTICATED_ERROR_CODE}) and a `WWW-Authenticate` header,
 * unless the operator set `auth.allowAnonymous`. The caller reaches the
 * executor as the SDK's `ServerCallContext.user`.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AGENT_CARD_PATH } from "@a2a-js/sdk";
import { DefaultRequestHandler, InMemoryTaskStore, type TaskStore } from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler } from "@a2a-js/sdk/server/express";
import type { OCPAgent } from "@ocp/a2a-ocp-agent";
import { scanJsonText } from "@ocp/types/internal";
import express from "express";
import {
  A2AAuthenticator,
  type A2AAuthOptions,
  A2ACaller,
  securityDeclarationOf,
  securityOf,
  UNAUTHENTICATED_ERROR_CODE,
} from "./auth.js";
import {
  type AgentCardOptions,
  AgentCardSchema,
  buildAgentCard,
  cardJson,
  declaredFeatures,
  type OcpAgentCard,
  ocpDeclarationOf,
} from "./card.js";
import { OcpAgentExecutor, type OcpAgentExecutorOptions } from "./executor.js";
import { MAX_A2A_REQUEST_BYTES } from "./limits.js";

/** Path of the JSON-RPC endpoint. */
export const A2A_RPC_PATH = "/a2a/jsonrpc";

/** Where the server listens. */
export interface A2AListenOptions {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** The base URL the card advertises (behind a proxy); `http://host:port` by default. */
  publicUrl?: string;
}

/** What the server answers with, and how. */
export interface A2AServeOptions extends Omit<AgentCardOptions, "id" | "url" | "name"> {
  agent: OCPAgent;
  name?: string;
  /** The card to serve (e.g. the one already put in the agent's profile); built from these options otherwise. */
  card?: OcpAgentCard;
  voter?: OcpAgentExecutorOptions["voter"];
  onTask?: OcpAgentExecutorOptions["onTask"];
  taskStore?: TaskStore;
  /** Seconds clients may cache the card (`Cache-Control: max-age`); 60 by default. */
  cardMaxAgeSeconds?: number;
  /** How callers authenticate: signed requests verified with `agent.lookupKey` by default; anonymous callers only when `allowAnonymous`. */
  auth?: A2AAuthOptions;
}

export type A2AServerOptions = A2AListenOptions & A2AServeOptions;

/**
 * A running A2A server of an OCP agent. {@link A2AServer.start} listens and
 * serves at once; {@link A2AServer.listen} then {@link A2AServer.serve} lets
 * the card (which names the server's address) be built, and put in the
 * agent's hub profile, before the agent exists.
 */
export class A2AServer {
  /** `http://host:port`. */
  readonly url: string;
  readonly #app: express.Express;
  readonly #server: Server;
  #card: OcpAgentCard | undefined;

  private constructor(url: string, app: express.Express, server: Server) {
    this.url = url;
    this.#app = app;
    this.#server = server;
  }

  /** Listens and serves `options.agent`. */
  static async start(options: A2AServerOptions): Promise<A2AServer> {
    const server = await A2AServer.listen(options);
    server.serve(options);
    return server;
  }

  /** Listens on a real HTTP server; nothing is served until {@link serve}. */
  static async listen(options: A2AListenOptions = {}): Promise<A2AServer> {
    const app = express();
    const server = createServer(app);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1");
    await once(server, "listening");
    const address = server.address() as AddressInfo;
    const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
    return new A2AServer(options.publicUrl ?? `http://${host}:${address.port}`, app, server);
  }

  /** The JSON-RPC endpoint's URL. */
  get rpcUrl(): string {
    return `${this.url}${A2A_RPC_PATH}`;
  }

  /** The card's URL. */
  get cardUrl(): string {
    return `${this.url}/${AGENT_CARD_PATH}`;
  }

  /** The card served (after {@link serve}). */
  get card(): OcpAgentCard {
    if (this.#card === undefined) throw new Error("the A2A server serves no agent yet");
    return this.#card;
  }

  /** The card of agent `id` at this server's address, declaring the security `auth` sets up. */
  cardFor(
    options: Omit<AgentCardOptions, "url" | "name" | "security"> & {
      name?: string;
      auth?: A2AAuthOptions;
    },
  ): OcpAgentCard {
    const { auth, ...rest } = options;
    return buildAgentCard({
      ...rest,
      name: options.name ?? options.id,
      url: this.rpcUrl,
      security: securityDeclarationOf(auth),
    });
  }

  /** Mounts the card and the JSON-RPC endpoint (the SDK's express handlers) for `options.agent`. */
  serve(options: A2AServeOptions): OcpAgentCard {
    if (this.#card !== undefined) throw new Error("the A2A server already serves an agent");
    const auth = options.auth ?? {};
    const authenticator = new A2AAuthenticator(auth, {
      audience: options.agent.id,
      url: this.rpcUrl,
      keys: options.agent.lookupKey,
    });
    const card = options.card ?? this.cardFor({ ...options, id: options.agent.id });
    const declared = JSON.stringify(
      cardJson({ ...card, ...securityOf(authenticator.declaration) }),
    );
    if (JSON.stringify(cardJson(card)) !== declared)
      throw new TypeError(
        "the card's securitySchemes / securityRequirements do not match `auth`: build it with cardFor({ ..., auth })",
      );
    const features = ocpDeclarationOf(AgentCardSchema.parse(card));
    const executor = new OcpAgentExecutor({
      agent: options.agent,
      features: features === undefined ? [] : declaredFeatures(features),
      allowAnonymous: authenticator.declaration.anonymous,
      ...(options.voter === undefined ? {} : { voter: options.voter }),
      ...(options.onTask === undefined ? {} : { onTask: options.onTask }),
    });
    const handler = new DefaultRequestHandler(
      card,
      options.taskStore ?? new InMemoryTaskStore(),
      executor,
    );
    this.#app.use(
      `/${AGENT_CARD_PATH}`,
      agentCardHandler({
        agentCardProvider: async () => cardJson(card) as unknown as OcpAgentCard,
        cache: { maxAge: options.cardMaxAgeSeconds ?? 60 },
      }),
    );
    const callers = new WeakMap<IncomingMessage, A2ACaller>();
    const bodies = new WeakMap<IncomingMessage, Buffer>();
    this.#app.use(
      A2A_RPC_PATH,
      express.json({
        limit: MAX_A2A_REQUEST_BYTES,
        verify: (req, _res, buffer) => {
          bodies.set(req, buffer);
        },
      }),
      refuseDuplicateKeys(bodies),
      authenticate(authenticator, bodies, callers),
      jsonRpcHandler({
        requestHandler: handler,
        userBuilder: async (req) => callers.get(req) ?? new A2ACaller(undefined, "anonymous"),
      }),
    );
    this.#card = card;
    return card;
  }

  /** Stops accepting connections and closes open ones. */
  async close(): Promise<void> {
    if (!this.#server.listening) return;
    const closed = once(this.#server, "close");
    this.#server.close();
    this.#server.closeAllConnections();
    await closed;
  }
}

/**
 * I-JSON (RFC 7493): a request body with two members of one name (a second
 * `from`, `method` or `params`) means one thing to `JSON.parse`, which keeps
 * the last, and another to a parser that keeps the first; it is refused as a
 * JSON-RPC parse error before anything reads it.
 */
function refuseDuplicateKeys(bodies: WeakMap<IncomingMessage, Buffer>): express.RequestHandler {
  return (req, res, next) => {
    const body = bodies.get(req);
    const problem = body === undefined ? undefined : scanJsonText(body.toString("utf8"));
    if (problem?.kind !== "duplicate_key") {
      next();
      return;
    }
    res.status(400).json({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32700,
        message: `the request has two members named "${problem.key.slice(0, 80)}" (at ${problem.path.slice(0, 160)}); I-JSON (RFC 7493) forbids duplicate names`,
      },
    });
  };
}

/** The express step that authenticates a JSON-RPC request before the SDK's handler sees it, or answers 401. */
function authenticate(
  authenticator: A2AAuthenticator,
  bodies: WeakMap<IncomingMessage, Buffer>,
  callers: WeakMap<IncomingMessage, A2ACaller>,
): express.RequestHandler {
  return async (req, res, next) => {
    const rawId = (req.body as { id?: unknown } | undefined)?.id;
    const id = typeof rawId === "string" || typeof rawId === "number" ? rawId : null;
    let result: Awaited<ReturnType<A2AAuthenticator["authenticate"]>>;
    try {
      result = await authenticator.authenticate({
        authorization: req.headers.authorization,
        method: req.method,
        body: bodies.get(req) ?? "",
      });
    } catch (error) {
      res.status(500).json({
        jsonrpc: "2.0",
        id,
        error: {
          code: -32603,
          message: `the caller could not be authenticated: ${error instanceof Error ? error.message : String(error)}`,
        },
      });
      return;
    }
    if (result.ok) {
      callers.set(req, result.caller);
      next();
      return;
    }
    // RFC 6750 §3: no error code when no credentials were sent.
    const challenge =
      result.reason === "missing_credentials"
        ? 'Bearer realm="a2a+ocp"'
        : `Bearer realm="a2a+ocp", error="invalid_token"`;
    res
      .status(401)
      .setHeader("WWW-Authenticate", challenge)
      .json({
        jsonrpc: "2.0",
        id,
        error: {
          code: UNAUTHENTICATED_ERROR_CODE,
          message: `unauthenticated (${result.reason}): ${result.message}`,
          data: { reason: result.reason },
        },
      });
  };
}
