/**
 * Mutual authentication of a hub link, both ways over a fresh nonce, as an
 * agent proves itself to a hub: the dialling hub signs `ocp.fed.hello` over
 * the accepting hub's nonce with its `--identity` key, and adds a challenge
 * of its own; the accepting hub signs `ocp.fed.welcome` over that challenge.
 * Each side checks the other's signature with the key its federate file
 * lists for that hub id, and nothing else: an unlisted hub is refused
 * `federation_unknown_peer`, a listed id with another key the same.
 */
import { randomBytes } from "node:crypto";
import { type AgentIdentity, signObject, verifyObject } from "@ocp/a2a-ocp-messaging";
import { isJsonObject } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import type { FederationPeer } from "./config.js";
import { FED_TYPES, HelloSchema, handshakeBody, WelcomeSchema } from "./frames.js";

/** A fresh challenge for one dial. */
export function challenge(): string {
  return randomBytes(24).toString("base64url");
}

/** The hello text the dialler sends over the acceptor's `nonce`. */
export function hello(identity: AgentIdentity, nonce: string, ownChallenge: string): string {
  const body = handshakeBody(FED_TYPES.HELLO, {
    hubId: identity.id,
    nonce,
    challenge: ownChallenge,
  });
  return JSON.stringify(signObject(body, identity.secretKey, nativeEd25519));
}

/** The welcome the acceptor returns over the dialler's challenge. */
export function welcome(identity: AgentIdentity, dialerChallenge: string): Record<string, unknown> {
  const body = handshakeBody(FED_TYPES.WELCOME, { hubId: identity.id, challenge: dialerChallenge });
  return signObject(body, identity.secretKey, nativeEd25519);
}

function signedBy(value: unknown, peer: FederationPeer): boolean {
  if (!isJsonObject(value)) return false;
  return verifyObject(value, Buffer.from(peer.publicKey, "base64"), nativeEd25519);
}

/** Checks a hello for `nonce`: the listed peer it comes from and its challenge, or why it is refused. */
export function verifyHello(
  value: unknown,
  nonce: string,
  peers: readonly FederationPeer[],
): { peer: FederationPeer; challenge: string } | { refused: string } {
  const parsed = HelloSchema.safeParse(value);
  if (!parsed.success) return { refused: "federation_frame_invalid: the hello is malformed" };
  const { hubId } = parsed.data.payload;
  const peer = peers.find((p) => p.hubId === hubId);
  if (peer === undefined) {
    return { refused: `federation_unknown_peer: ${hubId} is not a peer of this hub` };
  }
  if (parsed.data.payload.nonce !== nonce) {
    return { refused: "federation_unknown_peer: the hello is not bound to this connection" };
  }
  if (!signedBy(value, peer)) {
    return { refused: `federation_unknown_peer: the hello is not signed by the key of ${hubId}` };
  }
  return { peer, challenge: parsed.data.payload.challenge };
}

/** Whether a welcome is `peer`'s, signed over `ownChallenge`. */
export function verifyWelcome(value: unknown, peer: FederationPeer, ownChallenge: string): boolean {
  const parsed = WelcomeSchema.safeParse(value);
  if (!parsed.success) return false;
  const { hubId, challenge: signed } = parsed.data.payload;
  return hubId === peer.hubId && signed === ownChallenge && signedBy(value, peer);
}
