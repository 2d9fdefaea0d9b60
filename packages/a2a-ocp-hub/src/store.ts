/**
 * The durable store: messages that need delivery, per recipient, with a
 * per-recipient monotonic sequence number; message ids deduplicated until
 * their expiry; agent profiles and event subscriptions. The default is
 * {@link SqliteStore}; a shared engine (JetStream) implements the same
 * interface. Every method may be asynchronous; `commit` resolves only once
 * the batch is durable, and the hub acknowledges to senders only then.
 */
import type { AgentProfile, EventSubscription } from "@ocp/a2a-ocp-messaging";
import { MAX_TTL_SECONDS } from "@ocp/a2a-ocp-messaging/internal";
import { hubError } from "./errors.js";

/** A message to commit for its recipients. */
export interface StoredMessage {
  id: string;
  sender: string;
  /** The exact text received. */
  raw: string;
  /** When it may be forgotten (timestamp + ttl + clock skew), ms since the epoch. */
  expiresAt: number;
  recipients: readonly string[];
  /** The W3C `traceparent` of its commit span, tracing on (a clustered store puts it in the NATS headers). */
  traceparent?: string;
}

/** What a commit did with one message. */
export interface CommitOutcome {
  id: string;
  /** The id was already committed (inside its expiry): nothing was added. */
  duplicate: boolean;
  /** The sequence number each recipient got, in `recipients` order. */
  seqs: ReadonlyArray<readonly [agentId: string, seq: number]>;
}

/** A stored delivery waiting for its recipient. */
export interface PendingDelivery {
  seq: number;
  id: string;
  raw: string;
}

/** A delivery that expired before its recipient confirmed it. */
export interface ExpiredDelivery {
  agentId: string;
  id: string;
  sender: string;
  type?: string;
}

export interface HubStore {
  /**
   * Optional: whether the store can be reached now — false while a clustered
   * store's NATS connection is down (the hub then refuses durable messages
   * `store_failed`). Absent: always reachable (an embedded file).
   */
  readonly connected?: boolean;
  /**
   * Optional: the longest the store keeps a delivery, ms after its commit,
   * whatever its `expiresAt` (a JetStream inbox stream's `max_age`). Absent:
   * kept until `expiresAt`. The hub refuses a store whose retention is
   * shorter than the longest a message may live (`longestLifetimeMs`),
   * so no message is dropped before the expiry its ack announced.
   */
  readonly retentionMs?: number;
  /**
   * Optional: how many commits the hub may have in flight at once (1 when
   * absent). Only for a store that stores concurrent batches in the order
   * `commit` was called (JetStream publishes on one connection); the hub
   * still applies outcomes in that order.
   */
  readonly commitPipeline?: number;
  /**
   * Optional: why this store's owner refuses `profile` a registration, or
   * `undefined` when it does not. A federated store refuses the ids of its
   * peer organisations' agents (src/federation/outbox.ts), so a hub built on
   * it shuts that door whatever `allow` its embedder passes.
   */
  refuses?(profile: AgentProfile): string | undefined;
  /** Commits every message of the batch atomically, in order; resolves once durable. */
  commit(batch: readonly StoredMessage[]): Promise<CommitOutcome[]>;
  /** Up to `limit` deliveries of `agentId` after `afterSeq`, in sequence order, unexpired at `now`. */
  pending(
    agentId: string,
    afterSeq: number,
    limit: number,
    now: number,
  ): Promise<PendingDelivery[]>;
  /** `agentId` received everything up to `seq`: those deliveries may be forgotten. */
  confirm(agentId: string, seq: number): Promise<void>;
  /** Remembers an agent's verified profile (its latest). */
  saveAgent(profile: AgentProfile): Promise<void>;
  /** Every agent ever registered, with its latest profile. */
  agents(): Promise<AgentProfile[]>;
  saveSubscription(subscription: EventSubscription): Promise<void>;
  removeSubscription(agentId: string, subscriptionId: string): Promise<void>;
  subscriptions(): Promise<EventSubscription[]>;
  /**
   * Optional, for a store shared by several hubs: one agent's profile, read
   * from the shared store (an agent registered at another hub).
   */
  agent?(agentId: string): Promise<AgentProfile | undefined>;
  /**
   * Optional, for a store shared by several hubs: calls `listener` with every
   * profile saved from now on, by any hub, until the store closes.
   */
  watchAgents?(listener: (profile: AgentProfile) => void): Promise<void>;
  /**
   * Deletes messages and deliveries expired at `now`; resolves with how many
   * deliveries went. A store that can tells `onExpired` which (the audit log).
   */
  sweep(now: number, onExpired?: (expired: ExpiredDelivery[]) => void): Promise<number>;
  close(): Promise<void>;
}

/**
 * The longest a message may live after it reaches a hub, ms: a `ttl` of
 * {@link MAX_TTL_SECONDS}, dated up to the clock skew ahead of the hub's
 * clock, plus the skew grace after expiry.
 */
export function longestLifetimeMs(maxClockSkewMs: number): number {
  return MAX_TTL_SECONDS * 1000 + 2 * maxClockSkewMs;
}

/** Throws `invalid_option` when `store` would forget a delivery before the latest deadline a hub with this skew accepts. */
export function assertRetention(store: HubStore, maxClockSkewMs: number): void {
  const needed = longestLifetimeMs(maxClockSkewMs);
  if (store.retentionMs === undefined || store.retentionMs >= needed) return;
  throw hubError(
    "invalid_option",
    `the store keeps a delivery at most ${store.retentionMs} ms, less than a message may live ` +
      `(${needed} ms: MAX_TTL_SECONDS plus twice maxClockSkewMs): raise the store's retention ` +
      "(JetStreamStore maxAgeMs) or lower maxClockSkewMs",
    { details: { retentionMs: store.retentionMs, neededMs: needed, maxClockSkewMs } },
  );
}
