/**
 * `--agent ws://…`: the agent listens (§10.4, §6.2). Every tester opens its
 * own connection and registers as a peer. The agent's id is, in order: the
 * one given (`--agent-id`); the `hub.id` of its `ocp.connection.registered`
 * (a listening agent names itself there, as a hub does); the `agentId` there
 * when that names someone other than the peer (older listeners); else the
 * sender of its answer to a broadcast `ocp.awareness.query` (§5.4.3).
 * Its signed profile comes from `ocp.hub.lookup`.
 */
import {
  type AgentIdentity,
  generateIdentity,
  signedMessage,
  verifyAgentProfile,
} from "@ocp/a2a-ocp-messaging";
import {
  encodeHubControl,
  isHubFrame,
  isJsonObject,
  parseDeliver,
  profilePublicKey,
} from "@ocp/a2a-ocp-messaging/internal";
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

/** The sender of the first message the agent sends after a broadcast awareness query. */
async function discover(probe: Peer, probeId: AgentIdentity, timeoutMs: number): Promise<string> {
  const inbox = testerOn(probe, probeId).inbox;
  const query = signedMessage(
    probeId,
    {
      type: "ocp.awareness.query",
      to: "broadcast",
      payload: { queryId: `ocp-test-who-${globalThis.crypto.randomUUID()}` },
    },
    { backend: nativeEd25519 },
  );
  probe.send(JSON.stringify(query));
  const sender = await inbox.waitFor(() => {
    const from = inbox.messages.find((m) => typeof m.value["from"] === "string")?.value["from"];
    return typeof from === "string" ? from : undefined;
  }, timeoutMs);
  if (sender === undefined)
    throw new Error(
      `the agent's id is unknown: its ocp.connection.registered names the peer, and no answer to a broadcast ocp.awareness.query came within ${timeoutMs} ms (give --agent-id)`,
    );
  return sender;
}

/** Connects to a listening agent; throws with the reason when it cannot register there. */
export async function openListeningAgent(
  url: string,
  timeoutMs: number,
  knownId?: string,
): Promise<AgentSession> {
  const probeId = generateIdentity(`a2a://ocp-test-probe-${globalThis.crypto.randomUUID()}`);
  const probe = await register(url, probeId, { timeoutMs });
  try {
    const registered = probe.control("ocp.connection.registered")?.payload;
    const self = (registered?.["hub"] as { id?: unknown } | undefined)?.id;
    const named = typeof self === "string" && self !== "" ? self : registered?.["agentId"];
    const agentId =
      knownId ??
      (typeof named === "string" && named !== "" && named !== probeId.id
        ? named
        : await discover(probe, probeId, timeoutMs));
    probe.send(encodeHubControl("ocp.hub.lookup", { agentId }));
    const answer = await probe
      .waitFor(() => probe.control("ocp.hub.profile"), "profile", timeoutMs)
      .catch(() => undefined);
    let agentKey: Uint8Array | undefined;
    let agentProfile: Record<string, unknown> | undefined;
    let keyNote = "no profile at ocp.hub.lookup";
    const offered = answer?.payload["profile"];
    if (offered !== undefined) {
      const profile = verifyAgentProfile(offered, nativeEd25519);
      if (!profile.ok) keyNote = `its profile does not verify (${profile.error.message})`;
      else if (profile.value.id !== agentId) keyNote = `its profile is ${profile.value.id}'s`;
      else {
        agentKey = profilePublicKey(profile.value);
        // A profile that verifies is a JSON object; kept as received (unknown members included).
        agentProfile = isJsonObject(offered) ? offered : undefined;
        keyNote = "its self-signed profile verifies";
      }
    }
    return {
      agentId,
      agentKey,
      agentProfile,
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
