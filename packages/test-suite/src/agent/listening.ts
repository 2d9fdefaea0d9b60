/**
 * `--agent ws://…`: the agent listens (§10.4, §6.2). Every tester opens its
 * own connection and registers as a peer; the agent's `registered` frame
 * names it (`agentId`), and its signed profile comes from `ocp.hub.lookup`.
 */
import {
  type AgentIdentity,
  encodeHubControl,
  generateIdentity,
  isHubFrame,
  parseDeliver,
  profilePublicKey,
  verifyAgentProfile,
} from "@ocp/a2a-ocp-messaging";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { type Peer, register } from "../raw.js";
import { type AgentSession, Inbox, type Tester } from "./session.js";

function testerOn(peer: Peer, identity: AgentIdentity): Tester {
  const inbox = new Inbox();
  const take = (text: string) => {
    if (!isHubFrame(text)) inbox.push(text);
    else {
      const delivery = parseDeliver(text);
      if (delivery !== undefined) inbox.push(delivery.raw);
    }
  };
  for (const frame of peer.after) take(frame);
  peer.ws.on("message", (data) => take(data.toString()));
  return { identity, inbox, send: (text) => peer.send(text), close: () => peer.close() };
}

/** Connects to a listening agent; throws with the reason when it cannot register there. */
export async function openListeningAgent(url: string, timeoutMs: number): Promise<AgentSession> {
  const probeId = generateIdentity(`a2a://ocp-test-probe-${globalThis.crypto.randomUUID()}`);
  const probe = await register(url, probeId, { timeoutMs });
  try {
    const registered = probe.control("ocp.connection.registered");
    const agentId = registered?.payload["agentId"];
    if (typeof agentId !== "string" || agentId === "")
      throw new Error("the agent's ocp.connection.registered names no agentId");
    probe.send(encodeHubControl("ocp.hub.lookup", { agentId }));
    const answer = await probe
      .waitFor(() => probe.control("ocp.hub.profile"), "profile", timeoutMs)
      .catch(() => undefined);
    let agentKey: Uint8Array | undefined;
    let keyNote = "no profile at ocp.hub.lookup";
    if (answer?.payload["profile"] !== undefined) {
      const profile = verifyAgentProfile(answer.payload["profile"], nativeEd25519);
      if (!profile.ok) keyNote = `its profile does not verify (${profile.error.message})`;
      else if (profile.value.id !== agentId) keyNote = `its profile is ${profile.value.id}'s`;
      else {
        agentKey = profilePublicKey(profile.value);
        keyNote = "its self-signed profile verifies";
      }
    }
    return {
      agentId,
      agentKey,
      reached: `registered at ${url} as a peer (ack, nonce, announcement); agent ${agentId}, ${keyNote}`,
      async tester(identity) {
        return testerOn(await register(url, identity, { timeoutMs }), identity);
      },
      diagnostics: () => "",
      close: async () => undefined,
    };
  } finally {
    probe.close();
  }
}
