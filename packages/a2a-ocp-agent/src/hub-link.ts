import type { DeliveredMessage, HubClient } from "@ocp/a2a-ocp-client";
import type { PlainMessage, WireMessage } from "@ocp/a2a-ocp-messaging";
import type { AgentLink } from "./link.js";
import { clientRefusals } from "./refusals.js";

/**
 * An {@link AgentLink} over a connected `HubClient`: sends resolve on the
 * hub's ack (for durable messages, once committed), inbound messages arrive
 * verified and deduplicated, keys come from the profiles the hub serves.
 * Messages still encrypted (the client has no decryptor for them) are not
 * handed to the agent.
 */
export function hubLink(client: HubClient): AgentLink {
  return {
    lookupKey: client.lookupKey,
    send: (message) => client.send(message as unknown as WireMessage),
    findAgents: (query) => client.findAgents(query),
    onMessage(handler) {
      const listener = (delivered: DeliveredMessage) => {
        if ((delivered.message as { encrypted?: unknown }).encrypted === true) return;
        handler(delivered.message as PlainMessage);
      };
      client.on("message", listener);
      return () => client.off("message", listener);
    },
    onRefused: (handler) => clientRefusals(client, handler),
    async close() {
      await client.close();
    },
  };
}
