/**
 * §6.2 / §6.4 lifecycle and §8.1 proof of key: the subprotocol, the ack with
 * a nonce, registration, the graceful disconnect; forged, replayed and
 * impostor announcements; the sender of a message is the registered agent.
 */
import { type AgentIdentity, createAgentProfile, generateIdentity } from "@ocp/a2a-ocp-messaging";
import { buildAnnouncement, isJsonObject } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { type Check, excerpt, failed, outcome, passed } from "../context.js";
import { attemptRegistration, honestAnnounce, Peer, SUBPROTOCOL } from "../raw.js";

export const lifecycle: Check = {
  spec: {
    name: "lifecycle",
    sections: ["§6.2", "§6.4"],
    advisory: false,
    summary:
      "subprotocol a2a-ocp-v1, connection ack with a nonce, registration, graceful disconnect",
  },
  async run(context) {
    const id = context.identity("lifecycle");
    const attempt = await attemptRegistration(
      context.url,
      honestAnnounce(id),
      context.answerTimeoutMs,
    );
    const peer = context.track(attempt.peer);
    if (peer.protocol !== SUBPROTOCOL) {
      return failed(`the upgrade selected subprotocol "${peer.protocol}", not ${SUBPROTOCOL}`);
    }
    const first = peer.frames[0];
    if (
      attempt.outcome === "no-ack" ||
      first === undefined ||
      !first.includes("ocp.connection.ack")
    ) {
      return failed(`the first frame is not ocp.connection.ack: ${excerpt(first ?? "(none)")}`);
    }
    const nonce = peer.control("ocp.connection.ack")?.payload["nonce"];
    if (typeof nonce !== "string" || nonce.length < 16) {
      return failed(`the ack carries no nonce of at least 16 characters: ${excerpt(first)}`);
    }
    if (attempt.outcome !== "registered") {
      return failed(`an honest announcement was not registered: ${attempt.detail}`);
    }
    if (attempt.payload["agentId"] !== id.id) {
      return failed(`registered as ${String(attempt.payload["agentId"])}, not ${id.id}`);
    }
    peer.send(
      JSON.stringify({
        protocol: "a2a+ocp",
        version: "1.0.0",
        type: "ocp.connection.disconnect",
        payload: { reason: "ocp-test: done", code: 1000 },
      }),
    );
    // §6.4: the client sends the notice, then the connection closes: the hub answers our close.
    peer.ws.close(1000, "ocp-test: done");
    const closed = await peer.closeWithin(context.answerTimeoutMs);
    if (closed === undefined || closed.code !== 1000) {
      return failed(
        `after a disconnect notice and a close (1000), the closing handshake did not complete within ${context.answerTimeoutMs} ms${closed === undefined ? "" : ` (close ${closed.code})`}`,
      );
    }
    return passed(
      `${SUBPROTOCOL} selected; ack with a ${nonce.length}-char nonce; ${id.id} registered; disconnect notice and close → closing handshake ${closed.code}`,
    );
  },
};

export const subprotocolRequired: Check = {
  spec: {
    name: "subprotocol-required",
    sections: ["§6.2"],
    advisory: true,
    summary: "an upgrade that does not offer a2a-ocp-v1 is refused",
  },
  async run(context) {
    try {
      const peer = context.track(
        await Peer.open(context.url, ["not-a2a-ocp"], context.answerTimeoutMs),
      );
      return failed(
        `an upgrade offering only "not-a2a-ocp" was accepted (selected "${peer.protocol}")`,
      );
    } catch (error) {
      return passed(
        `an upgrade offering only "not-a2a-ocp" was refused: ${(error as Error).message}`,
      );
    }
  },
};

export const registrationProof: Check = {
  spec: {
    name: "registration-proof",
    sections: ["§8.1", "§6.4"],
    advisory: false,
    summary:
      "registration proves the key: a forged announcement, a replayed nonce, someone else's id and a key of small order are refused",
  },
  async run(context) {
    const problems: string[] = [];
    const notes: string[] = [];
    // Forged: the victim's self-signed profile, the announcement signed by another key.
    const victim = context.identity("victim");
    const forger = generateIdentity(victim.id);
    const victimProfile = createAgentProfile(victim, {}, nativeEd25519);
    const forged = await attemptRegistration(
      context.url,
      (nonce) => buildAnnouncement(forger, victimProfile, nonce, undefined, nativeEd25519),
      context.answerTimeoutMs,
    );
    context.track(forged.peer);
    if (forged.outcome === "registered")
      problems.push(`a forged announcement registered ${victim.id}`);
    else notes.push(`forged: ${forged.outcome === "refused" ? forged.detail : "no ack"}`);
    // Replayed: an announcement signed over connection A's nonce, sent on connection B.
    const replayer = context.identity("replayer");
    const first = context.track(await Peer.open(context.url, undefined, context.answerTimeoutMs));
    const ack = await first.waitFor(() => first.control("ocp.connection.ack"), "ack");
    const captured = honestAnnounce(replayer)(String(ack.payload["nonce"]));
    const replayed = await attemptRegistration(
      context.url,
      () => captured,
      context.answerTimeoutMs,
    );
    context.track(replayed.peer);
    if (replayed.outcome === "registered") {
      problems.push("an announcement signed over another connection's nonce was registered");
    } else
      notes.push(`replayed nonce: ${replayed.outcome === "refused" ? replayed.detail : "no ack"}`);
    // Someone else's id: registered once with one key, then announced with another.
    const owner = await context.join("owner");
    const impostor = generateIdentity(owner.id.id);
    const stolen = await attemptRegistration(
      context.url,
      honestAnnounce(impostor),
      context.answerTimeoutMs,
    );
    context.track(stolen.peer);
    if (stolen.outcome === "registered") {
      problems.push(`${owner.id.id}, registered with one key, was registered again with another`);
    } else
      notes.push(`someone else's id: ${stolen.outcome === "refused" ? stolen.detail : "no ack"}`);
    // No secret at all: the identity point as the key, "signed" with no secret.
    const keyless = context.identity("keyless");
    const smallOrder = await attemptRegistration(
      context.url,
      (nonce) => keylessAnnouncement(keyless, nonce),
      context.answerTimeoutMs,
    );
    context.track(smallOrder.peer);
    if (smallOrder.outcome === "registered") {
      problems.push(
        `${keyless.id} was registered with a key of small order, whose signatures need no secret`,
      );
    } else
      notes.push(
        `small-order key: ${smallOrder.outcome === "refused" ? smallOrder.detail : "no ack"}`,
      );
    return problems.length > 0 ? failed(problems.join("; ")) : passed(notes.join("; "));
  },
};

/**
 * An announcement for `identity`'s id whose profile carries the identity
 * point (a point of small order) as its key, the profile and the
 * announcement both "signed" with (identity point, S = 0). Under an Ed25519
 * verification that does not refuse small-order keys (OpenSSL's on its own),
 * that signature is valid for every message: anyone could then sign as the
 * agent.
 */
function keylessAnnouncement(identity: AgentIdentity, nonce: string): string {
  const point = new Uint8Array(32);
  point[0] = 1;
  const signature = new Uint8Array(64);
  signature[0] = 1;
  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
  const honest = createAgentProfile(identity, {}, nativeEd25519);
  const profile = { ...honest, publicKey: b64(point), signature: b64(signature) };
  const announcement: unknown = JSON.parse(
    buildAnnouncement(identity, profile, nonce, undefined, nativeEd25519),
  );
  // buildAnnouncement writes a JSON object; only its signature is replaced.
  const members = isJsonObject(announcement) ? announcement : {};
  return JSON.stringify({ ...members, signature: b64(signature) });
}

export const senderBinding: Check = {
  spec: {
    name: "sender-binding",
    sections: ["§8.1", "§8.2"],
    advisory: false,
    summary: "a message whose `from` is not the registered agent of the connection is refused",
  },
  async run(context) {
    const alice = await context.join("alice");
    const mallory = await context.join("mallory");
    const bob = await context.join("bob");
    // Signed by alice's own key (say, captured): only the connection proves who sends it.
    const spoof = context.marker("spoof");
    const message = context.signed(alice.id, {
      type: "ocp.custom.note",
      to: bob.id.id,
      payload: { says: spoof },
    });
    mallory.peer.send(message.text);
    const answer = await mallory.peer.answerTo(message.id, context.answerTimeoutMs);
    const marker = context.marker("after");
    mallory.peer.send(
      context.signed(mallory.id, { type: "ocp.custom.note", to: bob.id.id, payload: { marker } })
        .text,
    );
    await bob.peer.receivedMarker(marker, context.answerTimeoutMs);
    const leaked = bob.peer.delivered().some((text) => text.includes(spoof));
    if (answer.type !== "ocp.hub.reject" || leaked) {
      return failed(
        `a message from ${alice.id.id} sent on ${mallory.id.id}'s connection was ${outcome(answer)}${leaked ? " and delivered" : ""}`,
      );
    }
    return passed(`refused with ${outcome(answer)}, not delivered`);
  },
};
