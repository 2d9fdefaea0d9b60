/**
 * Inbound messages a link refused before the agent saw them, reported as
 * typed errors (`OcpError` with the inbound pipeline's code:
 * `decompression_failed`, `decompressed_too_large`, `signature_invalid`,
 * ...), so the agent turns each into an `error` event: never a silent drop.
 */
import type { HubClient } from "@ocp/a2a-ocp-client";
import type { OcpError } from "@ocp/types";

/**
 * The deliveries `client` refused (its `dropped` event), but exact replays
 * (their original was delivered). Listening takes over the client's process
 * warnings for unheard drops.
 */
export function clientRefusals(client: HubClient, handler: (error: OcpError) => void): () => void {
  const listener = (dropped: { code: string; error: OcpError }) => {
    if (dropped.code !== "replay_detected") handler(dropped.error);
  };
  client.on("dropped", listener);
  return () => client.off("dropped", listener);
}
