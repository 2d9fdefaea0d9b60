import { OCPAgent } from "../../src/agent/agent.js";
import { MemoryNetwork } from "../../src/agent/link.js";
import { generateIdentity } from "../../src/identity.js";
import type { KnowledgeNode } from "../../src/payloads/knowledge.js";

/** Resolves with `promise`, or rejects after `ms` (every wait in these tests is bounded). */
export function within<T>(promise: Promise<T>, ms = 10_000, what = "condition"): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/** Polls `check` until true (bounded). */
export async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

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
