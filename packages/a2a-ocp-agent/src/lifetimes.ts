/**
 * How long each message the agent runtime sends may live: its `ttl`, by
 * what the message means. Every message the runtime sends carries one, so
 * the hub's default TTL (5 minutes) never decides; the hub keeps a durable
 * message for offline recipients until its timestamp + ttl (+ the hub's
 * skew grace), and its ack says when that is (`SendReceipt.expiresAt`).
 *
 * | Messages                                                                 | Lifetime                                                       |
 * | ------------------------------------------------------------------------ | -------------------------------------------------------------- |
 * | `ocp.knowledge.stream`, `update`, `subscribe`, `unsubscribe`, `control`, `conflict` | {@link KNOWLEDGE_TTL_SECONDS} (24 h)                |
 * | `ocp.sync.conflict`, `ocp.collective.synthesis`                          | {@link KNOWLEDGE_TTL_SECONDS} (24 h)                           |
 * | `ocp.consensus.propose`, `ocp.consensus.vote`                            | until the voting deadline + {@link VOTING_TTL_GRACE_SECONDS}, at most `MAX_TTL_SECONDS` |
 * | `ocp.consensus.achieved`, `ocp.consensus.timeout`                        | {@link CONSENSUS_DECISION_TTL_SECONDS} (24 h)                  |
 * | `ocp.collective.query`, `ocp.collective.response`                        | until the query's timeout                                      |
 * | `ocp.knowledge.sync.*`, `ocp.sync.request`, `offer`, `accept`, `complete`, `ocp.awareness.query`, `response`, `capability.*` | {@link EXCHANGE_TTL_SECONDS} (30 s) |
 * | `ocp.awareness.beacon`, `ocp.awareness.update`                           | {@link PRESENCE_TTL_SECONDS} (60 s)                            |
 * | `ocp.event.*`                                                            | {@link EVENT_TTL_SECONDS} (300 s)                              |
 */
import type { KnownMessageType } from "@ocp/a2a-ocp-messaging";
import { MAX_TTL_SECONDS } from "@ocp/a2a-ocp-messaging/internal";
import {
  CONSENSUS_DECISION_TTL_SECONDS,
  EVENT_TTL_SECONDS,
  EXCHANGE_TTL_SECONDS,
  KNOWLEDGE_TTL_SECONDS,
  PRESENCE_TTL_SECONDS,
  VOTING_TTL_GRACE_SECONDS,
} from "./limits.js";

/**
 * A message's lifetime: a fixed number of seconds, or until a deadline the
 * sender knows (a voting deadline, a query's timeout) plus a grace, never
 * less than 1 s nor more than `MAX_TTL_SECONDS`.
 */
export type Lifetime =
  | { readonly seconds: number }
  | { readonly untilDeadline: true; readonly graceSeconds: number };

const knowledge = { seconds: KNOWLEDGE_TTL_SECONDS } as const;
const exchange = { seconds: EXCHANGE_TTL_SECONDS } as const;
const presence = { seconds: PRESENCE_TTL_SECONDS } as const;
const event = { seconds: EVENT_TTL_SECONDS } as const;
const voting = { untilDeadline: true, graceSeconds: VOTING_TTL_GRACE_SECONDS } as const;
const query = { untilDeadline: true, graceSeconds: 0 } as const;

/** The lifetime of every message type (the table above). */
export const MESSAGE_LIFETIMES: Readonly<Record<KnownMessageType, Lifetime>> = {
  "ocp.knowledge.stream": knowledge,
  "ocp.knowledge.update": knowledge,
  "ocp.knowledge.subscribe": knowledge,
  "ocp.knowledge.unsubscribe": knowledge,
  "ocp.knowledge.control": knowledge,
  "ocp.knowledge.conflict": knowledge,
  "ocp.sync.conflict": knowledge,
  "ocp.collective.synthesis": knowledge,
  "ocp.consensus.propose": voting,
  "ocp.consensus.vote": voting,
  "ocp.consensus.achieved": { seconds: CONSENSUS_DECISION_TTL_SECONDS },
  "ocp.consensus.timeout": { seconds: CONSENSUS_DECISION_TTL_SECONDS },
  "ocp.collective.query": query,
  "ocp.collective.response": query,
  "ocp.knowledge.sync.request": exchange,
  "ocp.knowledge.sync.response": exchange,
  "ocp.sync.request": exchange,
  "ocp.sync.offer": exchange,
  "ocp.sync.accept": exchange,
  "ocp.sync.complete": exchange,
  "ocp.awareness.query": exchange,
  "ocp.awareness.response": exchange,
  "capability.announce": exchange,
  "capability.confirm": exchange,
  "ocp.awareness.beacon": presence,
  "ocp.awareness.update": presence,
  "ocp.event.publish": event,
  "ocp.event.subscribe": event,
  "ocp.event.unsubscribe": event,
  "ocp.event.notification": event,
};

/**
 * The `ttl` (whole seconds) of a message of `type` sent at `now` (ms);
 * `deadline` (ms) is required by the kinds that live until one. Throws a
 * `TypeError` when it is missing: a runtime bug, never a silent default.
 */
export function messageTtl(type: KnownMessageType, now: number, deadline?: number): number {
  const lifetime = MESSAGE_LIFETIMES[type];
  if ("seconds" in lifetime) return lifetime.seconds;
  if (deadline === undefined) throw new TypeError(`${type} lives until a deadline: pass it`);
  const seconds = Math.ceil((deadline - now) / 1000) + lifetime.graceSeconds;
  return Math.min(MAX_TTL_SECONDS, Math.max(1, seconds));
}
