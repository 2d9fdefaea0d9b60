import { OCPAgent } from "../../src/agent/agent.js";
import { MemoryNetwork } from "../../src/agent/link.js";
import { generateIdentity } from "../../src/identity.js";
import type { KnowledgeNode } from "../../src/payloads/knowledge.js";

export { until, within } from "../hub/support.js";

/** A team of started agents on one in-memory network. */
export function team(names: string[]): OCPAgent[] {
  const net = new MemoryNetwork();
  return names.map((name) => {
    const identity = generateIdentity(`a2a://${name}`);
    return new OCPAgent({ identity, link: net.link(identity.id, identity.publicKey) }).start();
  });
}

let counter = 0;
/** A knowledge node with sensible defaults. */
export function node(over: Partial<KnowledgeNode> & { createdBy: string }): KnowledgeNode {
  counter += 1;
  return {
    id: `node-${counter}`,
    type: "code.solution",
    title: `Note ${counter}`,
    data: {},
    confidence: 0.9,
    timestamp: "2026-01-01T00:00:00Z",
    tags: [],
    ...over,
  };
}
