/**
 * §8.4 the hub's rules for a sealed (end-to-end encrypted) message, which it
 * cannot read: what it checks is the signed envelope field `ocpSealed`
 * (`@ocp/a2a-ocp-messaging` `checkSealedEnvelope`): every declared recipient
 * may see what the message declares it carries (§8.5, the hub's teams), a
 * message to named agents names only declared recipients, and the declared
 * recipients are exactly the holders of a wrapped key. It then routes only to
 * declared recipients (`sealedRoute`). A readable message goes on to the
 * authorship check (authorship.ts).
 */
import {
  BROADCAST,
  type Ed25519Backend,
  type Result,
  type VisibilityPolicy,
  type WireMessage,
} from "@ocp/a2a-ocp-messaging";
import { checkSealedEnvelope, ok, sealedEnvelopeOf } from "@ocp/a2a-ocp-messaging/internal";
import { checkAuthorship } from "./authorship.js";

/** The sealed-envelope rule for an encrypted message, the authorship rule for a readable one. */
export function checkPayloadRules(
  wire: WireMessage,
  payload: unknown,
  check: {
    keyOf: (agentId: string) => Uint8Array | undefined;
    ed25519: Ed25519Backend;
  },
  policy: () => VisibilityPolicy,
): Result<unknown> {
  if (wire.encrypted === true) {
    const sealed = checkSealedEnvelope(wire, policy());
    return sealed.ok ? ok(undefined) : sealed;
  }
  return checkAuthorship(wire, payload, check.keyOf, check.ed25519);
}

/**
 * Where a sealed message goes: its addressed agents, all declared (the check
 * ran first); for a broadcast, its declared recipients but the sender.
 */
export function sealedRoute(
  message: { from: string; to: string | readonly string[] },
  durable: boolean,
): { durable: boolean; recipients: string[]; excluded: string[] } {
  const declared = new Set(sealedEnvelopeOf(message)?.recipients ?? []);
  if (message.to === BROADCAST) {
    return {
      durable,
      recipients: [...declared].filter((agent) => agent !== message.from),
      excluded: [],
    };
  }
  const named = [...new Set(typeof message.to === "string" ? [message.to] : message.to)];
  return {
    durable,
    recipients: named.filter((agent) => declared.has(agent)),
    excluded: named.filter((agent) => !declared.has(agent)),
  };
}
