/**
 * Who is calling the A2A endpoint. Every request must authenticate, by
 * default with a signed request ({@link REQUEST_TOKEN_TYPE}) verified against
 * the caller's known key; the operator may also map bearer tokens to
 * `a2a://` identities, and may explicitly let anonymous callers in. The
 * result is an SDK `User` ({@link A2ACaller}): `userName` is the caller's
 * `a2a://` URI, which the executor authorizes against and the SDK's task
 * store scopes tasks by.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { SecurityRequirement, SecurityScheme } from "@a2a-js/sdk";
import type { User } from "@a2a-js/sdk/server";
import type { KeyLookup } from "@ocp/a2a-ocp-messaging";
import { AgentUriSchema } from "@ocp/a2a-ocp-messaging/schemas";
import {
  MAX_CREDENTIAL_BYTES,
  MAX_REQUEST_TOKEN_LIFETIME_SECONDS,
  MIN_BEARER_TOKEN_LENGTH,
} from "./auth-limits.js";
import {
  isRequestToken,
  REQUEST_TOKEN_TYPE,
  type RequestTokenFailure,
  RequestTokenVerifier,
} from "./request-token.js";

/** How the A2A endpoint authenticates its callers. */
export interface A2AAuthOptions {
  /** Accept signed requests (default true). */
  signedRequests?: boolean;
  /** The known key of a caller for signed requests; the agent's own `lookupKey` (the hub's verified profiles) by default. Never a key the caller brings. */
  keys?: KeyLookup;
  /**
   * Operator-issued bearer tokens and the `a2a://` identity each stands for
   * (tokens of at least `LIMITS.MIN_BEARER_TOKEN_LENGTH` characters), or a
   * function answering that (e.g. OAuth token introspection).
   */
  bearerTokens?:
    | Readonly<Record<string, string>>
    | ReadonlyMap<string, string>
    | ((token: string) => string | undefined | Promise<string | undefined>);
  /** Let callers without credentials in, as anonymous: public knowledge only, no writes. Off by default. */
  allowAnonymous?: boolean;
  /** `LIMITS.MAX_REQUEST_TOKEN_LIFETIME_SECONDS` by default. */
  maxTokenLifetimeSeconds?: number;
  clockSkewMs?: number;
  now?: () => number;
}

/** The caller of one request, as the SDK's `User`: `userName` is its `a2a://` URI ("" when anonymous). */
export class A2ACaller implements User {
  constructor(
    /** The authenticated `a2a://` URI; undefined for an anonymous caller. */
    readonly agentId: string | undefined,
    readonly method: "signed" | "bearer" | "anonymous",
  ) {}
  get isAuthenticated(): boolean {
    return this.agentId !== undefined;
  }
  get userName(): string {
    return this.agentId ?? "";
  }
}

/** The authenticated `a2a://` URI of an SDK user: its `userName` when it is authenticated and names one; undefined (anonymous) otherwise. */
export function callerIdOf(user: User | undefined): string | undefined {
  if (user?.isAuthenticated !== true) return undefined;
  return AgentUriSchema.safeParse(user.userName).success ? user.userName : undefined;
}

/** Names of the security schemes in the card. */
export const SIGNED_REQUEST_SCHEME = "a2a-ocp-signed-request";
export const BEARER_TOKEN_SCHEME = "a2a-ocp-bearer";

/** JSON-RPC error code of a request refused for its credentials (HTTP 401). */
export const UNAUTHENTICATED_ERROR_CODE = -32040;

/** Why a request's credentials were refused. */
export type AuthFailure =
  | "missing_credentials"
  | "unsupported_scheme"
  | "unknown_token"
  | RequestTokenFailure;

/** What the card declares: which schemes are accepted, and whether none is needed. */
export interface SecurityDeclaration {
  signedRequests: boolean;
  bearerTokens: boolean;
  anonymous: boolean;
}

export function securityDeclarationOf(auth: A2AAuthOptions | undefined): SecurityDeclaration {
  return {
    signedRequests: auth?.signedRequests !== false,
    bearerTokens: auth?.bearerTokens !== undefined,
    anonymous: auth?.allowAnonymous === true,
  };
}

/** The card's `securitySchemes` and `securityRequirements` (any one requirement suffices; an empty one means none is needed). */
export function securityOf(declaration: SecurityDeclaration): {
  securitySchemes: Record<string, SecurityScheme>;
  securityRequirements: SecurityRequirement[];
} {
  const schemes: Record<string, SecurityScheme> = {};
  if (declaration.signedRequests)
    schemes[SIGNED_REQUEST_SCHEME] = {
      scheme: {
        $case: "httpAuthSecurityScheme",
        value: {
          scheme: "Bearer",
          bearerFormat: "JWT",
          description: `A one-use JWS (alg EdDSA, typ ${REQUEST_TOKEN_TYPE}) signed with the caller's a2a+ocp Ed25519 key: iss = the caller's a2a:// URI (verified against its registered profile), aud = this agent's a2a:// URI, htm and htu = this request's method and endpoint URL, bsh = base64url SHA-256 of the body, jti unique, exp - iat <= ${MAX_REQUEST_TOKEN_LIFETIME_SECONDS} s.`,
        },
      },
    };
  if (declaration.bearerTokens)
    schemes[BEARER_TOKEN_SCHEME] = {
      scheme: {
        $case: "httpAuthSecurityScheme",
        value: {
          scheme: "Bearer",
          bearerFormat: "opaque",
          description: "A token issued by this agent's operator, standing for one a2a:// identity.",
        },
      },
    };
  const requirements: SecurityRequirement[] = Object.keys(schemes).map((name) => ({
    schemes: { [name]: { list: [] } },
  }));
  if (declaration.anonymous) requirements.push({ schemes: {} });
  return { securitySchemes: schemes, securityRequirements: requirements };
}

export type AuthResult =
  | { ok: true; caller: A2ACaller }
  | { ok: false; reason: AuthFailure; message: string };

const digest = (token: string) => createHash("sha256").update(token, "utf8").digest();

/** Authenticates the requests of one endpoint (framework-free: the express glue is in the server). */
export class A2AAuthenticator {
  readonly declaration: SecurityDeclaration;
  readonly #verifier: RequestTokenVerifier | undefined;
  readonly #bearer:
    | ((token: string) => string | undefined | Promise<string | undefined>)
    | undefined;

  constructor(auth: A2AAuthOptions, endpoint: { audience: string; url: string; keys: KeyLookup }) {
    this.declaration = securityDeclarationOf(auth);
    const { signedRequests, bearerTokens, anonymous } = this.declaration;
    if (!signedRequests && !bearerTokens && !anonymous)
      throw new TypeError(
        "A2A auth: signed requests are off and no bearer tokens are set, so no caller could get in (set allowAnonymous: true to mean that)",
      );
    this.#verifier = signedRequests
      ? new RequestTokenVerifier({
          audience: endpoint.audience,
          url: endpoint.url,
          keys: auth.keys ?? endpoint.keys,
          ...(auth.maxTokenLifetimeSeconds === undefined
            ? {}
            : { maxLifetimeSeconds: auth.maxTokenLifetimeSeconds }),
          ...(auth.clockSkewMs === undefined ? {} : { clockSkewMs: auth.clockSkewMs }),
          ...(auth.now === undefined ? {} : { now: auth.now }),
        })
      : undefined;
    this.#bearer = bearerLookup(auth.bearerTokens);
  }

  /** Who sent a request with this `Authorization` header, method and exact body. */
  async authenticate(request: {
    authorization: string | undefined;
    method: string;
    body: string | Uint8Array;
  }): Promise<AuthResult> {
    const header = request.authorization?.trim();
    if (header === undefined || header === "") {
      if (this.declaration.anonymous)
        return { ok: true, caller: new A2ACaller(undefined, "anonymous") };
      return {
        ok: false,
        reason: "missing_credentials",
        message:
          "this agent needs a signed request or a bearer token (see its card's securitySchemes)",
      };
    }
    const match = /^Bearer +(\S+)$/i.exec(header);
    if (match === null || header.length > MAX_CREDENTIAL_BYTES)
      return {
        ok: false,
        reason: "unsupported_scheme",
        message: "the Authorization header is not `Bearer <token>`",
      };
    const token = match[1] as string;
    if (this.#verifier !== undefined && isRequestToken(token)) {
      const verified = await this.#verifier.verify(token, request);
      return verified.ok
        ? { ok: true, caller: new A2ACaller(verified.agentId, "signed") }
        : verified;
    }
    const agentId = await this.#bearer?.(token);
    if (agentId !== undefined && AgentUriSchema.safeParse(agentId).success)
      return { ok: true, caller: new A2ACaller(agentId, "bearer") };
    return { ok: false, reason: "unknown_token", message: "the bearer token is not known here" };
  }
}

function bearerLookup(
  tokens: A2AAuthOptions["bearerTokens"],
): ((token: string) => string | undefined | Promise<string | undefined>) | undefined {
  if (tokens === undefined || typeof tokens === "function") return tokens;
  const entries = tokens instanceof Map ? [...tokens] : Object.entries(tokens);
  const known = entries.map(([token, agentId]) => {
    if (token.length < MIN_BEARER_TOKEN_LENGTH)
      throw new TypeError(
        `A2A auth: a bearer token must have at least ${MIN_BEARER_TOKEN_LENGTH} characters`,
      );
    if (!AgentUriSchema.safeParse(agentId).success)
      throw new TypeError(
        `A2A auth: a bearer token must stand for an a2a:// URI, not ${JSON.stringify(agentId)}`,
      );
    return { hash: digest(token), agentId };
  });
  // Compares digests in constant time, each one: no early exit on the first match.
  return (token) => {
    const hash = digest(token);
    let found: string | undefined;
    for (const entry of known) if (timingSafeEqual(entry.hash, hash)) found = entry.agentId;
    return found;
  };
}
