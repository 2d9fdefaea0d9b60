import type { EnvelopeInit } from "./envelope.js";

/**
 * Our extensions a peer can ask for (none is in `ocp/1.0-draft`):
 *
 * - `correlation`: the provider declares `capabilities.correlation` and echoes
 *   a query's `id`, so a host may pipeline queries (X-CORR);
 * - `error_code`: `error` envelopes carry a `code` (X-CODE).
 *
 * A host asks out of band, so its envelopes stay the reference's: a stdio
 * provider child gets the {@link EXTENSIONS_ENV} environment variable, an
 * HTTP request the {@link EXTENSIONS_HEADER} header. A peer that cannot do
 * either (the conformance suite on one connection of several) may list them
 * as `extensions` on its `handshake`. A provider
 * sends an extension only to a peer that asked for it, so a plain
 * `ocp/1.0-draft` peer only ever receives what the reference's schema allows.
 */
export const EXTENSIONS = ["correlation", "error_code"] as const;
export type Extension = (typeof EXTENSIONS)[number];

/** The HTTP request header that lists the extensions a host understands, comma-separated. */
export const EXTENSIONS_HEADER = "ocp-extensions";

/** The environment variable that lists them for a stdio provider child, comma-separated. */
export const EXTENSIONS_ENV = "OCP_EXTENSIONS";

const KNOWN: ReadonlySet<string> = new Set(EXTENSIONS);

/** The extensions named by a handshake's `extensions` list or a header value; unknown names are ignored. */
export function readExtensions(value: unknown): ReadonlySet<Extension> {
  const names =
    typeof value === "string" ? value.split(",") : Array.isArray(value) ? value : ([] as unknown[]);
  const out = new Set<Extension>();
  for (const name of names) {
    if (typeof name !== "string") continue;
    const trimmed = name.trim();
    if (KNOWN.has(trimmed)) out.add(trimmed as Extension);
  }
  return out;
}

/**
 * An outgoing envelope as `peer` may see it: without `capabilities.correlation`
 * unless it asked for `correlation`, without an error `code` unless it asked
 * for `error_code`. Correlation ids are echoed only when the query had one.
 */
export function forPeer(envelope: EnvelopeInit, peer: ReadonlySet<Extension>): EnvelopeInit {
  if (envelope.type === "handshake_ack" && !peer.has("correlation")) {
    const capabilities = envelope.capabilities;
    if (capabilities !== undefined && "correlation" in capabilities) {
      const { correlation: _, ...rest } = capabilities;
      return { ...envelope, capabilities: rest };
    }
  }
  if (envelope.type === "error" && !peer.has("error_code") && envelope.code !== undefined) {
    const { code: _, ...rest } = envelope;
    return rest;
  }
  return envelope;
}
