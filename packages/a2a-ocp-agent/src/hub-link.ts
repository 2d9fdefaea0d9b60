import type { DeliveredMessage, HubClient } from "@ocp/a2a-ocp-client";
import type { PlainMessage } from "@ocp/a2a-ocp-messaging";
import type { AgentLink } from "./link.js";
import { clientRefusals } from "./refusals.js";

/**
 * An {@link AgentLink} over a connected `HubClient`: sends resolve on the
 * hub's ack (for durable messages, once committed), inbound messages arrive
 * verified and deduplicated, keys come from the profiles the hub serves.
 * A sealed (§8.4 encrypted) message is handed on as it came: the agent
 * opens it with its own key, or reports why it cannot (unsealing.ts).
 */
export function hubLink(client: HubClient): AgentLink {
  return {
    lookupKey: client.lookupKey,
    send: (message) => client.send(message),
    findAgents: (query) => client.findAgents(query),
    onMessage(handler) {
      const listener = (delivered: DeliveredMessage) => {
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
