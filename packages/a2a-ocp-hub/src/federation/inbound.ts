/**
 * The receiving side's re-check of a message a peer hub forwarded: nothing
 * the peer says is taken on trust. In order:
 *
 * 1. a resend of a message this peer already had committed here under the
 *    same `seq` is acknowledged again and applied nothing (exactly once);
 * 2. the author must be an agent this peer vouched for (`federation_spoofed`);
 * 3. the hub's own inbound checks with the author's key from its signed card:
 *    size, JSON, schema, signature end to end, freshness, replay, rate;
 * 4. authorship (a node claimed for another author needs that author's
 *    signature, and only the peer's own agents' keys are known here);
 * 5. a subscribe or unsubscribe only from a peer that opted in to events
 *    (`federation_withheld`), its change held until the commit (events.ts);
 * 6. the crossing rule for each agent of this hub it would reach
 *    (`federation_withheld` when none may);
 * 7. commit for those agents; an id committed before is `replay_detected`;
 *    then a subscription change is applied for the remote agent.
 */
import { BROADCAST, type VisibilityPolicy, type WireMessage } from "@ocp/a2a-ocp-messaging";
import { isJsonObject } from "@ocp/a2a-ocp-messaging/internal";
import type { createDecompressor } from "@ocp/a2a-ocp-messaging/node";
import { checkInbound, type HubCheckOptions } from "../check.js";
import { readablePayload } from "../readable.js";
import { checkPayloadRules } from "../sealed.js";
import type { HubStore } from "../store.js";
import type { PendingSubscription } from "../subscription-messages.js";
import type { FederationPeer } from "./config.js";
import { withheldFrom } from "./crossing.js";
import type { FederationRegistry } from "./registry.js";

export interface InboundContext {
  readonly peer: FederationPeer;
  readonly registry: FederationRegistry;
  /** The hub's own store (not the outbox): what arrives is committed for local agents only. */
  readonly store: HubStore;
  readonly check: HubCheckOptions;
  /** This hub's agents. */
  readonly local: () => Iterable<string>;
  readonly isLocal: (agentId: string) => boolean;
  readonly policy: () => VisibilityPolicy;
  readonly decompress: ReturnType<typeof createDecompressor>;
  readonly deliver: (agentId: string, seq: number, raw: string) => void;
  /** What a remote agent's subscribe or unsubscribe changes here, held until its commit, or its refusal (events.ts). */
  readonly subscription: (
    wire: WireMessage,
    payload: unknown,
  ) => PendingSubscription | { code: string; reason: string };
  readonly now: () => number;
}

export type InboundOutcome =
  | { ok: true; resent: boolean; wire?: WireMessage; recipients: readonly string[] }
  | { ok: false; code: string; reason: string; id?: string; from?: string; type?: string };

/** Reads `from`, `id` and `type` of forwarded text for the record, as far as it goes. */
function peek(raw: string): { id?: string; from?: string; type?: string } {
  try {
    const value: unknown = JSON.parse(raw);
    if (!isJsonObject(value)) return {};
    const v = value;
    const text = (k: string) => (typeof v[k] === "string" ? { [k]: v[k] as string } : {});
    return { ...text("id"), ...text("from"), ...text("type") };
  } catch {
    return {};
  }
}

/**
 * A collective query broadcast a peer forwarded (`ocp.fed.query`, transient):
 * the same checks as {@link receive} up to the crossing rule, only from a
 * peer with `queries: true`, only `ocp.collective.query` broadcasts; handed
 * live to this hub's agents connected now (`deliverLive`), never stored.
 */
export function receiveQuery(
  raw: string,
  ctx: InboundContext,
  deliverLive: (raw: string, recipients: readonly string[]) => void,
  connected: () => Iterable<string>,
): InboundOutcome {
  const seen = peek(raw);
  const refuse = (code: string, reason: string): InboundOutcome => ({
    ok: false,
    code,
    reason,
    ...seen,
  });
  if (!ctx.peer.queries) {
    return refuse(
      "federation_withheld",
      `collective queries are not opted in for ${ctx.peer.hubId}`,
    );
  }
  const author = seen.from === undefined ? undefined : ctx.registry.get(seen.from);
  if (author === undefined || author.peer !== ctx.peer.hubId) {
    return refuse(
      "federation_spoofed",
      `${ctx.peer.hubId} forwarded a query from ${seen.from ?? "(none)"}, an agent it did not vouch for`,
    );
  }
  const checked = checkInbound(raw, author.profile.id, () => true, ctx.check);
  if (!checked.ok) return refuse(checked.error.code, checked.error.message);
  const { wire } = checked.value;
  if (wire.type !== "ocp.collective.query" || wire.to !== BROADCAST) {
    return refuse(
      "federation_frame_invalid",
      "ocp.fed.query carries only collective query broadcasts",
    );
  }
  const readable = readablePayload(wire, ctx.decompress);
  if ("refused" in readable) return refuse(readable.refused.code, readable.refused.message);
  const rules = checkPayloadRules(wire, readable.payload, ctx.check, ctx.policy);
  if (!rules.ok) return refuse(rules.error.code, rules.error.message);
  const recipients: string[] = [];
  let reason: string | undefined;
  for (const agent of connected()) {
    if (!ctx.isLocal(agent)) continue;
    const withheld = withheldFrom(wire, readable.payload, agent, ctx.policy(), true);
    if (withheld === undefined) recipients.push(agent);
    else reason ??= withheld;
  }
  if (recipients.length === 0 && reason !== undefined) return refuse("federation_withheld", reason);
  deliverLive(raw, recipients);
  return { ok: true, resent: false, wire, recipients };
}

export async function receive(
  seq: number,
  raw: string,
  ctx: InboundContext,
): Promise<InboundOutcome> {
  const seen = peek(raw);
  const refuse = (code: string, reason: string): InboundOutcome => ({
    ok: false,
    code,
    reason,
    ...seen,
  });
  if (seen.id !== undefined && ctx.registry.inboundSeq(ctx.peer.hubId, seen.id) === seq) {
    return { ok: true, resent: true, recipients: [] };
  }
  const author = seen.from === undefined ? undefined : ctx.registry.get(seen.from);
  if (author === undefined || author.peer !== ctx.peer.hubId) {
    return refuse(
      "federation_spoofed",
      `${ctx.peer.hubId} forwarded a message from ${seen.from ?? "(none)"}, an agent it did not vouch for`,
    );
  }
  const checked = checkInbound(raw, author.profile.id, () => true, ctx.check);
  if (!checked.ok) return refuse(checked.error.code, checked.error.message);
  const { wire, deadline } = checked.value;
  const readable = readablePayload(wire, ctx.decompress);
  if ("refused" in readable) return refuse(readable.refused.code, readable.refused.message);
  const { payload } = readable;
  const rules = checkPayloadRules(wire, payload, ctx.check, ctx.policy);
  if (!rules.ok) return refuse(rules.error.code, rules.error.message);
  const held = ctx.subscription(wire, payload);
  if ("code" in held) return refuse(held.code, held.reason);
  const candidates =
    wire.to === BROADCAST
      ? [...ctx.local()]
      : [...new Set([wire.to].flat())].filter((id) => ctx.isLocal(id));
  const recipients: string[] = [];
  let reason: string | undefined;
  for (const agent of candidates) {
    const withheld = withheldFrom(wire, payload, agent, ctx.policy(), ctx.peer.queries);
    if (withheld === undefined) recipients.push(agent);
    else reason ??= withheld;
  }
  if (recipients.length === 0) {
    held.release();
    return refuse("federation_withheld", reason ?? "it names no agent of this hub");
  }
  let committed: Awaited<ReturnType<HubStore["commit"]>>;
  try {
    committed = await ctx.store.commit([
      { id: wire.id, sender: wire.from, raw, expiresAt: deadline, recipients },
    ]);
  } catch (error) {
    held.release();
    throw error;
  }
  const [outcome] = committed;
  if (outcome === undefined || outcome.duplicate) {
    held.release();
    return refuse("replay_detected", `message ${wire.id} was already committed here`);
  }
  await held.apply();
  ctx.registry.recordInbound(ctx.peer.hubId, wire.id, seq, deadline, ctx.now());
  for (const [agent, delivered] of outcome.seqs) ctx.deliver(agent, delivered, raw);
  return { ok: true, resent: false, wire, recipients };
}
