/**
 * A collective query a local agent broadcast, handed to a peer that opted in
 * to queries (`queries: true`): it crosses only when its sender's card is
 * public and every node it carries may cross (crossing.ts); otherwise the
 * refusal is audited. Queries are live: nothing is queued for a link that is
 * down.
 */
import type { AuditEntry, VisibilityPolicy, WireMessage } from "@ocp/a2a-ocp-messaging";
import type { createDecompressor } from "@ocp/a2a-ocp-messaging/node";
import { readablePayload } from "../readable.js";
import type { HubStore } from "../store.js";
import type { FederationPeer } from "./config.js";
import { cardCrosses, withheldFrom } from "./crossing.js";
import { describe } from "./describe.js";
import type { CrossingSeen } from "./observer.js";

export interface QueryForwardContext {
  /** This hub's agents. */
  readonly local: ReadonlySet<string>;
  readonly store: Required<Pick<HubStore, "agent">>;
  readonly decompress: ReturnType<typeof createDecompressor>;
  readonly policy: () => VisibilityPolicy;
  /** Sends the query on `peer`'s link; false when the link is down. */
  readonly send: (peer: string, raw: string) => boolean;
  readonly audit: (entry: Omit<AuditEntry, "at">, seen: CrossingSeen) => void;
  readonly onError: (error: unknown) => void;
}

/** Forwards `raw`, a transient broadcast this hub checked already, when it is a local agent's collective query that may cross. */
export function forwardQuery(ctx: QueryForwardContext, peer: FederationPeer, raw: string): void {
  const wire = JSON.parse(raw) as WireMessage; // Text this hub checked already.
  if (wire.type !== "ocp.collective.query" || !ctx.local.has(wire.from)) return;
  const stored = { id: wire.id, sender: wire.from, raw, expiresAt: 0, recipients: [] };
  const seen = { peer: peer.hubId, direction: "out", source: wire } as const;
  const refuse = (reason: string) =>
    ctx.audit(
      {
        event: "refused",
        ...describe(stored),
        to: [peer.hubId],
        code: "federation_withheld",
        reason,
      },
      seen,
    );
  ctx.store.agent(wire.from).then((sender) => {
    if (sender === undefined || !cardCrosses(sender)) {
      refuse(`the card of ${wire.from} is not public: other organisations cannot verify it`);
      return;
    }
    const readable = readablePayload(wire, ctx.decompress);
    if ("refused" in readable) return;
    const withheld = withheldFrom(wire, readable.payload, peer.hubId, ctx.policy(), true);
    if (withheld !== undefined) {
      refuse(withheld);
      return;
    }
    if (ctx.send(peer.hubId, raw)) {
      ctx.audit({ event: "delivered", ...describe(stored), to: [peer.hubId] }, seen);
    }
  }, ctx.onError);
}
