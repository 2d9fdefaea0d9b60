/**
 * Signed A2A requests: a caller proves, per request, that it holds the
 * Ed25519 key bound to its `a2a://` URI (§8.1), the key the server already
 * knows from a verified profile (the hub's registry by default). The proof is
 * a compact JWS (RFC 7515) with `alg: "EdDSA"` (RFC 8037) and
 * `typ: "a2a-ocp-request+jwt"`, sent as `Authorization: Bearer <token>`:
 *
 * - `iss`: the caller's `a2a://` URI; the key that verifies is looked up by
 *   it, never taken from the token;
 * - `aud`: the `a2a://` URI of the agent called;
 * - `htm`, `htu`: the HTTP method and the URL of the endpoint called (a
 *   token sent to one server is worthless at another);
 * - `bsh`: base64url SHA-256 of the exact request body (the token covers
 *   this request and no other);
 * - `iat`, `exp`: seconds; the lifetime is at most
 *   `LIMITS.MAX_REQUEST_TOKEN_LIFETIME_SECONDS`;
 * - `jti`: unique; a token is accepted once.
 *
 * Any JOSE library that signs EdDSA can make one.
 */
import { createHash } from "node:crypto";
import type { AgentIdentity, KeyLookup } from "@ocp/a2a-ocp-messaging";
import { ReplayWindow } from "@ocp/a2a-ocp-messaging";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { AgentUriSchema } from "@ocp/a2a-ocp-messaging/schemas";
import { z } from "zod";
import {
  MAX_CREDENTIAL_BYTES,
  MAX_REQUEST_TOKEN_ID_LENGTH,
  MAX_REQUEST_TOKEN_LIFETIME_SECONDS,
  REQUEST_REPLAY_MAX_ENTRIES,
  REQUEST_TOKEN_CLOCK_SKEW_MS,
  REQUEST_TOKEN_LIFETIME_SECONDS,
} from "./auth-limits.js";

/** The JWS `typ` of a signed request token (explicit typing, RFC 8725 §3.11). */
export const REQUEST_TOKEN_TYPE = "a2a-ocp-request+jwt";

const HeaderSchema = z.looseObject({
  alg: z.literal("EdDSA"),
  typ: z.literal(REQUEST_TOKEN_TYPE),
  crit: z.never().optional(),
});

/** The claims of a signed request token. */
export const RequestClaimsSchema = z.strictObject({
  iss: AgentUriSchema,
  aud: z.string().min(1),
  htm: z.string().min(1),
  htu: z.string().min(1),
  iat: z.number().int().min(0),
  exp: z.number().int().min(0),
  jti: z.string().min(1).max(MAX_REQUEST_TOKEN_ID_LENGTH),
  bsh: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
});
export type RequestClaims = z.infer<typeof RequestClaimsSchema>;

/** Why a signed request token was refused. */
export type RequestTokenFailure =
  | "malformed"
  | "wrong_audience"
  | "wrong_target"
  | "body_mismatch"
  | "not_yet_valid"
  | "expired"
  | "lifetime_too_long"
  | "unknown_caller"
  | "bad_signature"
  | "replayed";

/** base64url SHA-256 of a request body (`bsh`). */
export function bodyHash(body: string | Uint8Array): string {
  return createHash("sha256").update(body).digest("base64url");
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64url");

export interface SignRequestOptions {
  /** The `a2a://` URI of the agent called. */
  audience: string;
  /** The endpoint's URL, as the request goes to it. */
  url: string;
  method?: string;
  /** The exact body sent ("" for none). */
  body: string | Uint8Array;
  /** `LIMITS.REQUEST_TOKEN_LIFETIME_SECONDS` by default. */
  lifetimeSeconds?: number;
  now?: () => number;
}

/** A signed request token for one request of `identity`. */
export function signRequestToken(identity: AgentIdentity, options: SignRequestOptions): string {
  const iat = Math.floor((options.now ?? Date.now)() / 1000);
  const claims: RequestClaims = {
    iss: identity.id,
    aud: options.audience,
    htm: (options.method ?? "POST").toUpperCase(),
    htu: options.url,
    iat,
    exp: iat + (options.lifetimeSeconds ?? REQUEST_TOKEN_LIFETIME_SECONDS),
    jti: globalThis.crypto.randomUUID(),
    bsh: bodyHash(options.body),
  };
  const input = `${encode({ alg: "EdDSA", typ: REQUEST_TOKEN_TYPE })}.${encode(claims)}`;
  const signature = nativeEd25519.sign(Buffer.from(input, "ascii"), identity.secretKey);
  return `${input}.${Buffer.from(signature).toString("base64url")}`;
}

/** Whether a bearer credential has the shape of a signed request token (its header names our `typ`). */
export function isRequestToken(token: string): boolean {
  const dot = token.indexOf(".");
  if (dot <= 0 || token.length > MAX_CREDENTIAL_BYTES) return false;
  return HeaderSchema.safeParse(decodeJson(token.slice(0, dot))).success;
}

function decodeJson(segment: string): unknown {
  if (!/^[A-Za-z0-9_-]*$/.test(segment)) return undefined;
  try {
    return JSON.parse(Buffer.from(segment, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
}

/** The URL a token names, reduced to what is compared: origin and path. */
function target(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname.replace(/\/+$/, "")}`;
  } catch {
    return undefined;
  }
}

export interface RequestTokenVerifierOptions {
  /** The `a2a://` URI of the agent served (`aud` must name it). */
  audience: string;
  /** The endpoint's public URL (`htu` must name it). */
  url: string;
  /** The known key of a caller: a verified profile's, never one the request brings. */
  keys: KeyLookup;
  maxLifetimeSeconds?: number;
  clockSkewMs?: number;
  maxEntries?: number;
  now?: () => number;
}

export type RequestTokenResult =
  | { ok: true; agentId: string; claims: RequestClaims }
  | { ok: false; reason: RequestTokenFailure; message: string };

/** Verifies signed request tokens for one endpoint, each accepted once. */
export class RequestTokenVerifier {
  readonly #options: RequestTokenVerifierOptions;
  readonly #target: string | undefined;
  readonly #replay: ReplayWindow;

  constructor(options: RequestTokenVerifierOptions) {
    this.#options = options;
    this.#target = target(options.url);
    this.#replay = new ReplayWindow({
      maxEntries: options.maxEntries ?? REQUEST_REPLAY_MAX_ENTRIES,
    });
  }

  /** Checks `token` for a request with `method` and `body`: shape, target, time, key, signature, then replay. */
  async verify(
    token: string,
    request: { method: string; body: string | Uint8Array },
  ): Promise<RequestTokenResult> {
    const refuse = (reason: RequestTokenFailure, message: string): RequestTokenResult => ({
      ok: false,
      reason,
      message,
    });
    const segments = token.split(".");
    if (token.length > MAX_CREDENTIAL_BYTES || segments.length !== 3)
      return refuse("malformed", "the signed request token is not a compact JWS");
    const [header, payload, signature] = segments as [string, string, string];
    if (!HeaderSchema.safeParse(decodeJson(header)).success)
      return refuse(
        "malformed",
        `the token header is not { alg: EdDSA, typ: ${REQUEST_TOKEN_TYPE} }`,
      );
    const parsed = RequestClaimsSchema.safeParse(decodeJson(payload));
    if (!parsed.success)
      return refuse(
        "malformed",
        `the token claims are invalid: ${parsed.error.issues[0]?.path.join(".") ?? ""} ${parsed.error.issues[0]?.message ?? ""}`.trim(),
      );
    const claims = parsed.data;
    const o = this.#options;
    if (claims.aud !== o.audience)
      return refuse("wrong_audience", `the token is for ${claims.aud}, not ${o.audience}`);
    if (claims.htm !== request.method.toUpperCase() || target(claims.htu) !== this.#target)
      return refuse(
        "wrong_target",
        `the token is for ${claims.htm} ${claims.htu}, not this endpoint`,
      );
    if (claims.bsh !== bodyHash(request.body))
      return refuse("body_mismatch", "the token does not cover this request's body");
    const now = (o.now ?? Date.now)();
    const skew = o.clockSkewMs ?? REQUEST_TOKEN_CLOCK_SKEW_MS;
    const maxLifetime = o.maxLifetimeSeconds ?? MAX_REQUEST_TOKEN_LIFETIME_SECONDS;
    if (claims.exp <= claims.iat || claims.exp - claims.iat > maxLifetime)
      return refuse("lifetime_too_long", `a token lives more than 0 and at most ${maxLifetime} s`);
    if (claims.iat * 1000 > now + skew)
      return refuse("not_yet_valid", "the token is issued in the future");
    const deadline = claims.exp * 1000 + skew;
    if (now > deadline) return refuse("expired", "the token expired");
    const key = await o.keys(claims.iss);
    if (key === undefined)
      return refuse("unknown_caller", `no verified profile of ${claims.iss} is known here`);
    const bytes = /^[A-Za-z0-9_-]{86}$/.test(signature)
      ? Buffer.from(signature, "base64url")
      : undefined;
    if (
      bytes === undefined ||
      !nativeEd25519.verify(bytes, Buffer.from(`${header}.${payload}`, "ascii"), key)
    )
      return refuse("bad_signature", `the token is not signed by the key of ${claims.iss}`);
    const fresh = this.#replay.admit(`${claims.iss} ${claims.jti}`, deadline, now);
    if (!fresh.ok)
      return refuse(
        "replayed",
        `the token ${claims.jti} was already used (or cannot be proven unused)`,
      );
    return { ok: true, agentId: claims.iss, claims };
  }
}
