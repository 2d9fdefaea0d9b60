import { createAgentProfile } from "@ocp/a2a-ocp-messaging";
import { generateIdentityWithEncryption } from "@ocp/a2a-ocp-messaging/node";
import { afterEach } from "vitest";
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

/**
 * Closers a test pushes (listeners, clients, agents): after each test of the
 * calling file they run newest first, a failing one not stopping the rest.
 */
export function closersAfterEach(): Array<() => Promise<unknown>> {
  const closers: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
  });
  return closers;
}
