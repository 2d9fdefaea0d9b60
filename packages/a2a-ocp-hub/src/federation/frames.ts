/**
 * The hub-to-hub frames (docs/a2a-ocp-wire.md, "Federation"): after the
 * transport's handshake, in which the dialling hub announces itself with
 * `ocp.fed.hello` signed over the accepting hub's nonce and the accepting
 * hub answers with `ocp.fed.welcome` signed over the dialler's own nonce
 * (the `registered` payload), both hubs send:
 *
 * - `ocp.fed.agents` `{ cards }`: signed cards of agents it vouches for;
 * - `ocp.fed.message` `{ seq, raw }`: a message exactly as its author signed
 *   it, `seq` its place in the sender's outbox for this peer;
 * - `ocp.fed.ack` `{ seq }`: committed here (or already was, for a resend);
 * - `ocp.fed.query` `{ raw }`: a collective query broadcast (transient: no
 *   outbox, no ack), only between peers that opted in to queries;
 * - `ocp.fed.event` `{ raw }`: the hub-signed `ocp.event.notification` of an
 *   event for a remote agent's subscription (transient: no outbox, no ack),
 *   only between peers that opted in to events (events.ts);
 * - `ocp.fed.reject` `{ seq?, code, reason, agent? }`: refused for good
 *   (the sender drops it from its outbox), or a card refused (`agent`).
 */
import { PROTOCOL, PROTOCOL_VERSION } from "@ocp/a2a-ocp-messaging";
import { z } from "zod";
import { FEDERATION_MAX_CARDS_PER_FRAME } from "./limits.js";

export const FED_TYPES = {
  HELLO: "ocp.fed.hello",
  WELCOME: "ocp.fed.welcome",
  AGENTS: "ocp.fed.agents",
  MESSAGE: "ocp.fed.message",
  QUERY: "ocp.fed.query",
  EVENT: "ocp.fed.event",
  ACK: "ocp.fed.ack",
  REJECT: "ocp.fed.reject",
} as const;

const Seq = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

/** The dialler's announcement, signed by its hub key (`signObject`). */
export const HelloSchema = z.strictObject({
  protocol: z.literal(PROTOCOL),
  type: z.literal(FED_TYPES.HELLO),
  version: z.string(),
  payload: z.strictObject({
    hubId: z.string().min(1).max(512),
    /** The accepting hub's nonce (the transport's ack). */
    nonce: z.string().min(1).max(256),
    /** The dialler's own nonce, which the welcome must sign. */
    challenge: z.string().min(16).max(256),
  }),
  signature: z.string(),
});

/** The accepting hub's answer, signed by its hub key, in the `registered` payload (`fedWelcome`). */
export const WelcomeSchema = z.strictObject({
  protocol: z.literal(PROTOCOL),
  type: z.literal(FED_TYPES.WELCOME),
  version: z.string(),
  payload: z.strictObject({
    hubId: z.string().min(1).max(512),
    challenge: z.string().min(16).max(256),
  }),
  signature: z.string(),
});

export const LinkFrameSchema = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal(FED_TYPES.AGENTS),
    payload: z.strictObject({ cards: z.array(z.unknown()).max(FEDERATION_MAX_CARDS_PER_FRAME) }),
  }),
  z.strictObject({
    type: z.literal(FED_TYPES.MESSAGE),
    payload: z.strictObject({ seq: Seq, raw: z.string().min(2) }),
  }),
  z.strictObject({
    type: z.literal(FED_TYPES.QUERY),
    payload: z.strictObject({ raw: z.string().min(2) }),
  }),
  z.strictObject({
    type: z.literal(FED_TYPES.EVENT),
    payload: z.strictObject({ raw: z.string().min(2) }),
  }),
  z.strictObject({ type: z.literal(FED_TYPES.ACK), payload: z.strictObject({ seq: Seq }) }),
  z.strictObject({
    type: z.literal(FED_TYPES.REJECT),
    payload: z.strictObject({
      seq: Seq.optional(),
      agent: z.string().max(512).optional(),
      code: z.string().min(1).max(64),
      reason: z.string().max(1024),
    }),
  }),
]);

export type LinkFrame = z.infer<typeof LinkFrameSchema>;

/** A frame's JSON text. */
export function frame<F extends LinkFrame>(type: F["type"], payload: F["payload"]): string {
  return JSON.stringify({ type, payload });
}

/** The unsigned body of a hello or welcome (signed by the caller). */
export function handshakeBody(
  type: typeof FED_TYPES.HELLO | typeof FED_TYPES.WELCOME,
  payload: Record<string, string>,
): Record<string, unknown> {
  return { protocol: PROTOCOL, type, version: PROTOCOL_VERSION, payload };
}

/** Parses one link frame; `undefined` when it is not one (refused `federation_frame_invalid`). */
export function parseLinkFrame(raw: string): LinkFrame | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const parsed = LinkFrameSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
