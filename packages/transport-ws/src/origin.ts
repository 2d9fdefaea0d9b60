/**
 * Browser origins at the upgrade. A browser attaches `Origin` to every
 * WebSocket upgrade it makes, and nothing else stops a page from another site
 * opening a socket to a server on this machine (the same-origin policy does
 * not cover WebSockets). So an upgrade that carries `Origin` is refused with
 * HTTP 403 unless its origin is listed; a client that sends no `Origin`
 * (every non-browser client: Node, Python, Rust) is unaffected.
 */

/** What an `allowedOrigins` entry may be: `scheme://host[:port]` of http(s), nothing else. */
export function normalizeOrigin(origin: string): string {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new TypeError(`allowedOrigins: "${origin}" is not an origin (scheme://host[:port])`);
  }
  const bare = origin.replace(/\/$/, "");
  if (
    (url.protocol !== "http:" && url.protocol !== "https:") ||
    url.origin.toLowerCase() !== bare.toLowerCase()
  ) {
    throw new TypeError(
      `allowedOrigins: "${origin}" is not an http(s) origin (scheme://host[:port], no path, no "*")`,
    );
  }
  return url.origin;
}

/** The allowed origins, normalized; throws a TypeError on an entry that is not an origin. */
export function originPolicy(allowed: Iterable<string> | undefined): ReadonlySet<string> {
  return new Set([...(allowed ?? [])].map(normalizeOrigin));
}

/** Whether an upgrade with this `Origin` header (absent for non-browser clients) may proceed. */
export function originAllowed(
  header: string | string[] | undefined,
  allowed: ReadonlySet<string>,
): boolean {
  if (header === undefined) return true;
  if (Array.isArray(header)) return false;
  return allowed.has(header);
}
