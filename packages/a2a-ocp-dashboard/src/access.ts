/**
 * Who may read the dashboard. On loopback (the default) anyone on this
 * machine may, and requests must name a loopback host (no DNS rebinding).
 * Anywhere else a token is required: the server refuses to start without one,
 * and every request must carry it (`Authorization: Bearer`, `?token=` on the
 * first page load, then the HttpOnly cookie the server sets). The data
 * endpoints (`/events`, `/snapshot.json`) also refuse a request made by a
 * page of another origin (HTTP 403): the server sends no CORS headers, so such
 * a page could never read them anyway, and it is not served at all.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";

export const TOKEN_COOKIE = "ocp_dashboard_token";

/** Whether `host` (an interface to listen on) is loopback only. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (bare === "localhost" || bare === "::1") return true;
  return isIP(bare) === 4 && bare.startsWith("127.");
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Constant-time comparison of two secrets (of any lengths). */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** The token a request carries, from the header, the query or the cookie. */
export function tokenOf(request: IncomingMessage, url: URL): string | undefined {
  const auth = request.headers.authorization;
  if (auth?.startsWith("Bearer ")) return auth.slice("Bearer ".length).trim();
  const query = url.searchParams.get("token");
  if (query !== null) return query;
  for (const part of (request.headers.cookie ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === TOKEN_COOKIE) return decodeURIComponent(value.join("="));
  }
  return undefined;
}

/** Whether a request's Host header names this loopback server (a rebinding guard). */
export function loopbackHostHeader(request: IncomingMessage): boolean {
  const host = request.headers.host;
  if (host === undefined) return false;
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0]!;
  return isLoopback(name);
}

export type AccessDecision = { ok: true; setCookie?: string } | { ok: false; status: 401 | 421 };

/** Whether to serve a request, given the server's bind host and token. */
export function decideAccess(
  request: IncomingMessage,
  url: URL,
  server: { loopback: boolean; token: string | undefined },
): AccessDecision {
  if (server.loopback && !loopbackHostHeader(request)) return { ok: false, status: 421 };
  if (server.token === undefined) return { ok: true };
  const given = tokenOf(request, url);
  if (given === undefined || !sameSecret(given, server.token)) return { ok: false, status: 401 };
  return url.searchParams.has("token")
    ? {
        ok: true,
        setCookie: `${TOKEN_COOKIE}=${encodeURIComponent(given)}; HttpOnly; SameSite=Strict; Path=/`,
      }
    : { ok: true };
}

/**
 * Whether a request was made by a page of another origin: an `Origin` header
 * naming another host than the request's own `Host`, or a browser's
 * `Sec-Fetch-Site` saying `cross-site` / `same-site` (another port of this
 * machine is same-site) for anything but a top-level navigation.
 */
export function fromAnotherOrigin(request: IncomingMessage): boolean {
  const site = request.headers["sec-fetch-site"];
  if (
    (site === "cross-site" || site === "same-site") &&
    request.headers["sec-fetch-mode"] !== "navigate"
  ) {
    return true;
  }
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  try {
    return new URL(origin).host !== (request.headers.host ?? "").toLowerCase();
  } catch {
    return true; // "null" (a sandboxed or file page) or not an origin at all
  }
}
