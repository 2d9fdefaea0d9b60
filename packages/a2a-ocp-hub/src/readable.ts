/** What the hub may read of a message. */
import type { CompressedMessage, WireMessage } from "@ocp/a2a-ocp-messaging";
import type { createDecompressor } from "@ocp/a2a-ocp-messaging/node";

/** The payload the hub may read: plain, inflated, `"undecodable"`, or `undefined` when encrypted. */
export function readablePayload(
  wire: WireMessage,
  decompress: ReturnType<typeof createDecompressor>,
): unknown {
  if (wire.encrypted === true) return undefined;
  if ("compressedPayload" in wire && wire.compressedPayload !== undefined) {
    const inflated = decompress(wire as CompressedMessage);
    return inflated.ok ? inflated.value.payload : "undecodable";
  }
  return (wire as { payload: unknown }).payload;
}
