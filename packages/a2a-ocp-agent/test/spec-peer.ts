import {
  createMessage,
  generateIdentity,
  type KnownMessageType,
  type PayloadInit,
  type PlainMessage,
  signObject,
} from "@ocp/a2a-ocp-messaging";
import type { AgentLink, MemoryNetwork } from "../src/link.js";

/** A sender on a memory network that uses only the specification's shapes: no `ocpVersion`, no `tombstones`. */
export function plainPeer(net: MemoryNetwork, name: string) {
  const identity = generateIdentity(`a2a://${name}`);
  const link: AgentLink = net.link(identity.id, identity.publicKey);
  const inbox: PlainMessage[] = [];
  link.onMessage((m) => inbox.push(m));
  return {
    id: identity.id,
    inbox,
    async send<T extends KnownMessageType>(type: T, to: string, payload: PayloadInit<T>) {
      const message = createMessage({ type, from: identity.id, to, payload });
      await link.send(signObject(message, identity.secretKey));
    },
  };
}
