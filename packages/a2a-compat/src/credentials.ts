/**
 * The caller's side of A2A authentication, on the SDK's client: a `fetch`
 * that signs every request with the caller's identity
 * (`signingFetch`), one that sends an operator's bearer token
 * ({@link bearerFetch}, the SDK's `createAuthenticatingFetchWithRetry`), and
 * {@link createA2AClient}, an SDK `Client` for an agent's base URL with
 * either.
 */
import { AGENT_CARD_PATH, AgentCard } from "@a2a-js/sdk";
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  createAuthenticatingFetchWithRetry,
  JsonRpcTransportFactory,
} from "@a2a-js/sdk/client";
import type { AgentIdentity } from "@ocp/a2a-ocp-messaging";
import { isJsonObject } from "@ocp/a2a-ocp-messaging/internal";
import { a2aError } from "./errors.js";
import { CARD_FETCH_TIMEOUT_MS } from "./limits.js";
import { signRequestToken } from "./request-token.js";

/** How a caller authenticates: its identity (signed requests), an operator's bearer token, or nothing. */
export type A2ACredentials =
  | { identity: AgentIdentity; lifetimeSeconds?: number }
  | { bearerToken: string }
  | { anonymous: true };

function bodyOf(init: RequestInit | undefined): string {
  const body = init?.body;
  if (body === undefined || body === null) return "";
  if (typeof body === "string") return body;
  throw new TypeError(
    "signingFetch signs string bodies only (the SDK's JSON-RPC transport sends one)",
  );
}

function withHeader(init: RequestInit | undefined, name: string, value: string): RequestInit {
  const headers = new Headers(init?.headers);
  headers.set(name, value);
  return { ...init, headers };
}

/**
 * A `fetch` that adds `Authorization: Bearer <signed request token>` to
 * every request: the token names `audience` (the `a2a://` URI of the agent
 * called), the request's method and URL, and covers its exact body.
 */
export function signingFetch(
  identity: AgentIdentity,
  options: { audience: string; lifetimeSeconds?: number; fetch?: typeof fetch },
): typeof fetch {
  const base = options.fetch ?? globalThis.fetch;
  return (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const token = signRequestToken(identity, {
      audience: options.audience,
      url,
      method: init?.method ?? "GET",
      body: bodyOf(init),
      ...(options.lifetimeSeconds === undefined
        ? {}
        : { lifetimeSeconds: options.lifetimeSeconds }),
    });
    return base(input, withHeader(init, "Authorization", `Bearer ${token}`));
  };
}

/** A `fetch` that sends `Authorization: Bearer <token>` (an operator-issued token), through the SDK's authentication handler. */
export function bearerFetch(
  token: string,
  fetchImpl: typeof fetch = globalThis.fetch,
): typeof fetch {
  return createAuthenticatingFetchWithRetry(fetchImpl, {
    headers: async () => ({ Authorization: `Bearer ${token}` }),
    shouldRetryWithHeaders: async () => undefined,
  });
}

/** An SDK client factory whose JSON-RPC requests carry `credentials`. */
export function clientFactoryFor(
  credentials: A2ACredentials,
  audience: string | undefined,
  fetchImpl: typeof fetch = globalThis.fetch,
): ClientFactory {
  let authenticated: typeof fetch = fetchImpl;
  if ("identity" in credentials) {
    if (audience === undefined)
      throw a2aError(
        "card_unavailable",
        "a signed request needs the a2a:// URI of the agent called",
      );
    authenticated = signingFetch(credentials.identity, {
      audience,
      fetch: fetchImpl,
      ...(credentials.lifetimeSeconds === undefined
        ? {}
        : { lifetimeSeconds: credentials.lifetimeSeconds }),
    });
  } else if ("bearerToken" in credentials) {
    authenticated = bearerFetch(credentials.bearerToken, fetchImpl);
  }
  return new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl: authenticated })],
    }),
  );
}

export interface CreateA2AClientOptions {
  /** The `a2a://` URI of the agent called; the card's `id` by default. Signed requests name it. */
  audience?: string;
  fetch?: typeof fetch;
}

/**
 * An SDK client for the agent at `baseUrl` (its card at the well-known
 * path, fetched without credentials) whose requests carry `credentials`.
 */
export async function createA2AClient(
  baseUrl: string,
  credentials: A2ACredentials,
  options: CreateA2AClientOptions = {},
): Promise<Client> {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const url = `${baseUrl.replace(/\/+$/, "")}/${AGENT_CARD_PATH}`;
  let raw: Record<string, unknown>;
  try {
    const response = await fetchImpl(url, {
      headers: { accept: "application/json", "A2A-Version": "1.0" },
      signal: AbortSignal.timeout(CARD_FETCH_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const body: unknown = await response.json();
    if (!isJsonObject(body)) throw new Error("the card is not a JSON object");
    raw = body;
  } catch (error) {
    throw a2aError(
      "card_unavailable",
      `the card at ${url} could not be fetched: ${error instanceof Error ? error.message : String(error)}`,
      { details: { url }, cause: error },
    );
  }
  const audience = options.audience ?? (typeof raw["id"] === "string" ? raw["id"] : undefined);
  return clientFactoryFor(credentials, audience, fetchImpl).createFromAgentCard(
    AgentCard.fromJSON(raw),
  );
}
