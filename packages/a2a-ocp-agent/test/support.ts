import { generateIdentity } from "@ocp/a2a-ocp-messaging";
import { OCPAgent } from "../src/agent.js";
import { MemoryNetwork } from "../src/link.js";

export { sampleNode as node, until, within } from "@ocp/testkit";

/** A team of started agents on one in-memory network. */
export function team(names: string[]): OCPAgent[] {
  const net = new MemoryNetwork();
  return names.map((name) => {
    const identity = generateIdentity(`a2a://${name}`);
    return new OCPAgent({ identity, link: net.link(identity.id, identity.publicKey) }).start();
  });
}
