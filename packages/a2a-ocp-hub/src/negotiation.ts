/**
 * §7.2 negotiation at the hub, in the two forms an agent may send it:
 *
 * - the signed message with the full §4.1 envelope, `to` = the hub's id
 *   (checked like every other message, then answered by {@link HubNegotiation.toHub});
 * - the **bare** form the specification prints (`protocol`, `type`,
 *   `payload` only), accepted on a registered connection: the connection
 *   supplies the sender (the agent that registered it). It is unsigned, so it
 *   changes nothing but that connection's negotiated features, and it spends
 *   the agent's `HUB_BARE_ANNOUNCES_PER_MINUTE` budget (limits.ts) (each answer
 *   costs the hub a signature).
 *
 * Any other frame without an envelope is refused `invalid_message` with what
 * is missing and why.
 */
import { randomUUID } from "node:crypto";
import { PROTOCOL, type WireMessage } from "@ocp/a2a-ocp-messaging";
import { isJsonObject } from "@ocp/a2a-ocp-messaging/internal";
import { CapabilityAnnouncePayloadSchema } from "@ocp/a2a-ocp-messaging/schemas";
import { parseJsonText } from "@ocp/types/internal";
import type { AckInit } from "./control.js";
import type { HubSelf } from "./hub-self.js";
import type { AgentSession } from "./session.js";

/** The §4.1 envelope fields every message carries and a bare frame lacks. */
export const ENVELOPE_FIELDS = ["id", "from", "to", "timestamp"] as const;

/** Longest `type` quoted back in a refusal, characters. */
const QUOTED_TYPE_MAX = 100;

/** What {@link readBareFrame} found. */
export type BareFrame =
  /** Not a bare frame: the message checks' own refusal stands. */
  | { readonly kind: "enveloped" }
  /** A bare §7.2 announce: `id` is the one the hub gives it (audit log, confirm's `correlation_id`). */
  | { readonly kind: "announce"; readonly id: string; readonly payload: unknown }
  /** A bare frame the hub refuses (`invalid_message`): why, and what is missing. */
  | {
      readonly kind: "refused";
      readonly message: string;
      readonly details: Record<string, unknown>;
    };

/**
 * Reads `raw`, a frame the message checks refused as `invalid_message`: a
 * JSON object with `protocol` = `a2a+ocp` and a string `type` but no `id`,
 * `from` or `signature` is bare. A bare `capability.announce` (with no `to`,
 * or `to` = `hubId`) and a valid §7.2 payload is accepted; every other bare
 * frame is refused with the reason.
 */
export function readBareFrame(raw: string, hubId: string): BareFrame {
  const json = parseJsonText(raw);
  if (!json.ok) return { kind: "enveloped" };
  const frame = json.value;
  if (!isJsonObject(frame)) return { kind: "enveloped" };
  const fields = frame;
  const { protocol, type, to } = fields;
  if (protocol !== PROTOCOL || typeof type !== "string") return { kind: "enveloped" };
  if ("id" in fields || "from" in fields || "signature" in fields) return { kind: "enveloped" };
  const missing = ENVELOPE_FIELDS.filter((field) => !(field in fields));
  const quoted = type.slice(0, QUOTED_TYPE_MAX);
  if (type !== "capability.announce") {
    return {
      kind: "refused",
      message:
        `${quoted} has no envelope (missing ${missing.join(", ")}): only capability.announce ` +
        "may be sent bare (§7.2), as it changes nothing but the sender's own connection; " +
        "every other message needs the §4.1 envelope and a signature (§8.2), since the hub " +
        "forwards or keeps it",
      details: { type: quoted, missing: [...missing, "signature"] },
    };
  }
  if (to !== undefined && to !== hubId) {
    return {
      kind: "refused",
      message:
        "a bare capability.announce is answered by the hub only (no to, or to = the hub's " +
        "id); to announce to another agent, send it with the §4.1 envelope, signed (§8.2)",
      details: { type, to: typeof to === "string" ? to.slice(0, QUOTED_TYPE_MAX) : to, hubId },
    };
  }
  const payload = CapabilityAnnouncePayloadSchema.safeParse(fields["payload"]);
  if (!payload.success) {
    const issues = payload.error.issues
      .slice(0, 4)
      .map(({ path, message }) => ({ path: ["payload", ...path], message }));
    return {
      kind: "refused",
      message:
        "a bare capability.announce needs payload {features: [§7.1 feature names], " +
        "version: semver} (§7.2)",
      details: { type, issues },
    };
  }
  return { kind: "announce", id: randomUUID(), payload: payload.data };
}

/** What §7.2 negotiation uses of the hub. */
export interface NegotiationContext {
  readonly self: HubSelf;
  /** Spends one frame of the agent's budget; true (answered `rate_limited`) when past it. */
  readonly overBudget: (session: AgentSession, kind: "announce") => boolean;
  /** Counts and audits an accepted announce (the audit log, not the listeners). */
  readonly accepted: (announce: { id: string; type: string; from: string; to: unknown }) => void;
  readonly ack: (session: AgentSession, ack: AckInit) => void;
  readonly reject: (
    session: AgentSession,
    raw: string | undefined,
    code: string,
    message: string,
    details?: Record<string, unknown>,
    id?: string,
  ) => void;
}

/** The hub's answers to §7.2 announces, signed or bare. */
export class HubNegotiation {
  readonly #ctx: NegotiationContext;

  constructor(context: NegotiationContext) {
    this.#ctx = context;
  }

  /** A checked message addressed to the hub itself: only `capability.announce` is answered. */
  toHub(session: AgentSession, wire: WireMessage, payload: unknown, deadline: number): void {
    const ack = { id: wire.id, durable: false, recipients: 1, excluded: 0, expiresAt: deadline };
    if (wire.type === "capability.announce" && this.#negotiate(session, wire, payload, ack)) return;
    const why = `the hub answers only capability.announce, not ${wire.type}`;
    this.#ctx.reject(session, undefined, "recipient_unknown", why, undefined, wire.id);
  }

  /**
   * A frame the message checks refused as `invalid_message`: a bare §7.2
   * announce is answered for the connection's own agent; any other bare
   * frame is refused with what is missing. False when `raw` is not bare
   * (the checks' refusal stands).
   */
  bare(session: AgentSession, raw: string): boolean {
    const { self, overBudget, reject } = this.#ctx;
    const bare = readBareFrame(raw, self.id);
    if (bare.kind === "enveloped") return false;
    if (bare.kind === "refused") {
      reject(session, raw, "invalid_message", bare.message, bare.details);
      return true;
    }
    if (overBudget(session, "announce")) return true;
    const announce = {
      id: bare.id,
      type: "capability.announce",
      from: session.agentId,
      to: self.id,
    };
    if (!this.#negotiate(session, announce, bare.payload)) {
      reject(session, raw, "invalid_message", "not a §7.2 capability.announce");
    }
    return true;
  }

  /**
   * Confirms to `session`'s agent the announced features the hub supports;
   * they become that connection's negotiated features, nothing else. Acks
   * first when the announce was a message (`ack`).
   */
  #negotiate(
    session: AgentSession,
    announce: { id: string; type: string; from: string; to: unknown },
    payload: unknown,
    ack?: AckInit,
  ): boolean {
    const answer = this.#ctx.self.confirm(announce, payload);
    if (answer === undefined) return false;
    this.#ctx.accepted(announce);
    session.features = answer.confirmed;
    if (ack !== undefined) this.#ctx.ack(session, ack);
    if (session.open) session.connection.send(answer.raw);
    return true;
  }
}
