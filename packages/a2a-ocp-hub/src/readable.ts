/** What the hub may read of a message. */
import type { CompressedMessage, WireMessage } from "@ocp/a2a-ocp-messaging";
import type { createDecompressor } from "@ocp/a2a-ocp-messaging/node";
import type { OcpError } from "@ocp/types";

/**
 * The payload the hub may read: plain, inflated (§12.2, capped at
 * `MAX_DECOMPRESSED_BYTES`), or `undefined` when encrypted; every check
 * after this one (authorship, visibility, subscriptions, limits) reads it.
 * A compressed payload that cannot be read is `{ refused }` with its named
 * reason: `decompressed_too_large` (a zip bomb), `decompression_failed`
 * (corrupt), or `invalid_message` (it inflates to a payload its type does
 * not allow).
 */
export function readablePayload(
  wire: WireMessage,
  decompress: ReturnType<typeof createDecompressor>,
): { readonly payload: unknown } | { readonly refused: OcpError } {
  if (wire.encrypted === true) return { payload: undefined };
  if ("compressedPayload" in wire && wire.compressedPayload !== undefined) {
    const inflated = decompress(wire as CompressedMessage);
    return inflated.ok ? { payload: inflated.value.payload } : { refused: inflated.error };
  }
  return { payload: (wire as { payload: unknown }).payload };
}
