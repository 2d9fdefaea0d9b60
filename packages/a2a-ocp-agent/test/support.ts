import { createAgentProfile } from "@ocp/a2a-ocp-messaging";
import { generateIdentityWithEncryption } from "@ocp/a2a-ocp-messaging/node";
import { OCPAgent } from "../src/agent.js";
import { MemoryNetwork } from "../src/link.js";

export { sampleNode as node, until, within } from "@ocp/testkit";

/** A team of started agents on one in-memory network, each with an encryption key in its signed profile. */
export function team(names: string[]): OCPAgent[] {
  const net = new MemoryNetwork();
  return names.map((name) => {
    const identity = generateIdentityWithEncryption(`a2a://${name}`);
    const link = net.link(identity.id, identity.publicKey, createAgentProfile(identity));
    return new OCPAgent({ identity, link }).start();
  });
}
