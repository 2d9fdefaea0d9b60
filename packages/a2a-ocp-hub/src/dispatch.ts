/**
 * The last step of the hub's message path, for a message that passed every
 * check (hub.ts) and whose subscription change, if any, is held: publish it
 * on the cluster's subjects (a transient broadcast on a NATS bus), or route
 * it (§8.5 visibility, subscriptions), apply the recipients' §7.1 declared
 * limits, then commit it (durable) or forward it (transient, with §5.5.4
 * notifications), and acknowledge. What the message changes is applied only
 * once it is accepted — for a durable message, once committed — and given
 * back otherwise, so a refusal leaves no trace.
 */
import type { VisibilityPolicy, WireMessage } from "@ocp/a2a-ocp-messaging";
import type { CommitQueue } from "./acks.js";
import type { RecipientLimits } from "./agent-limits.js";
import type { HubBus } from "./bus.js";
import { clusterStep } from "./cluster.js";
import type { AckInit } from "./control.js";
import { type HubSelf, transientSends } from "./hub-self.js";
import { type Route, route } from "./router.js";
import type { AgentSession } from "./session.js";
import type { PendingSubscription } from "./subscription-messages.js";
import type { SubscriptionTable } from "./subscriptions.js";
import type { HubTelemetry } from "./telemetry.js";

/** What the dispatch step uses of the hub. */
export interface DispatchContext {
  readonly self: HubSelf;
  readonly bus: HubBus;
  readonly subscriptions: SubscriptionTable;
  readonly commits: CommitQueue;
  /** §7.1 limits the recipients declared (agent-limits.ts). */
  readonly limits: RecipientLimits;
  /** Registered agents' ids. */
  readonly known: () => Iterable<string>;
  /** §8.5 visibility now. */
  readonly policy: () => VisibilityPolicy;
  /** Counts and observes (audit log, listeners) an accepted message. */
  readonly accepted: (
    wire: WireMessage,
    payload: unknown,
    verified: boolean,
    routed?: Route,
  ) => void;
  readonly ack: (session: AgentSession, ack: AckInit) => void;
  readonly reject: (
    session: AgentSession,
    raw: string | undefined,
    code: string,
    message: string,
    details: Record<string, unknown> | undefined,
    id: string,
  ) => void;
  readonly onError: (error: unknown) => void;
  /** Hop histograms and spans (telemetry.ts). */
  readonly telemetry: HubTelemetry;
}

/** A message that passed the hub's checks, from `session`'s agent. */
export interface CheckedInbound {
  readonly session: AgentSession;
  readonly wire: WireMessage;
  /** Its parsed JSON (the source of hub-signed notifications). */
  readonly json: Record<string, unknown>;
  /** Its payload, decompressed when it was compressed; `undefined` when encrypted. */
  readonly payload: unknown;
  /** The sender's exact text, forwarded as is. */
  readonly raw: string;
  /** Until when it is delivered, ms since the epoch. */
  readonly deadline: number;
  /** Whether the hub verified its signature. */
  readonly verified: boolean;
  /** Its held subscription change, applied once accepted, released otherwise. */
  readonly pending: PendingSubscription;
}

/** Publishes, or routes, limits, commits or forwards, and acknowledges `m`. */
export function dispatch(m: CheckedInbound, ctx: DispatchContext): void {
  const { session, wire, json, payload, raw, deadline, verified, pending } = m;
  // Cluster (NATS bus): transient broadcasts and events route by subject (cluster.ts).
  const policy = ctx.policy();
  const published = clusterStep(ctx.bus.cluster, wire, payload, raw, policy, ctx.onError);
  if (published !== undefined) {
    const refused = () => ctx.reject(session, undefined, "store_failed", "bus failed", {}, wire.id);
    const ack = { id: wire.id, durable: false, recipients: 0, excluded: 0, expiresAt: deadline };
    published
      .then(
        () => {
          ctx.accepted(wire, payload, verified);
          return pending.apply().catch(ctx.onError);
        },
        (error: unknown) => {
          pending.release();
          throw error;
        },
      )
      .then(() => ctx.ack(session, ack), refused);
    return;
  }
  const decided = route(wire, payload, {
    known: ctx.known,
    attached: () => ctx.bus.attached(),
    subscriptions: ctx.subscriptions,
    policy,
    clusterWide: ctx.bus.cluster !== undefined,
  });
  const limited = ctx.limits.apply(wire, payload, decided); // §7.1 declared limits
  if (limited.refused !== undefined) {
    pending.release();
    ctx.reject(session, raw, "recipient_limit", limited.refused, undefined, wire.id);
    return;
  }
  const accept = () => {
    limited.settle(true);
    ctx.accepted(wire, payload, verified, decided);
    pending.apply().catch(ctx.onError);
  };
  if (decided.durable) {
    const { recipients } = decided;
    const traced = ctx.telemetry.committing(wire.id);
    const { traceparent } = traced;
    const stored = { id: wire.id, sender: wire.from, raw, expiresAt: deadline, recipients };
    ctx.commits.push({
      stored: traceparent === undefined ? stored : { ...stored, traceparent },
      sender: session,
      excluded: decided.excluded.length,
      trace: traced.trace,
      settled: (committed) => {
        traced.done(committed);
        if (committed) accept();
        else {
          limited.settle(false);
          pending.release();
        }
      },
    });
    return;
  }
  accept();
  const sends = transientSends(ctx.self, { wire, json, payload, raw }, decided.recipients, {
    match: (event) => ctx.subscriptions.match(event),
  });
  const trace = ctx.telemetry.forwarding(wire.id);
  for (const [agent, bytes] of sends) ctx.bus.deliver(agent, { kind: "transient", bytes, trace });
  ctx.ack(session, {
    id: wire.id,
    durable: false,
    recipients: decided.recipients.length,
    excluded: decided.excluded.length,
    expiresAt: deadline,
  });
}
