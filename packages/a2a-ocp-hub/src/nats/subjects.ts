/**
 * The subject design of hubs clustered on NATS: the names are chosen so that
 * NATS itself routes, and no hub loops over the team to find recipients.
 * Everything of one workspace lives under `ocp.<workspace>.`; several teams
 * share one NATS server without seeing each other.
 *
 * | subject / name                        | kind                | carries                                                                 |
 * | ------------------------------------- | ------------------- | ----------------------------------------------------------------------- |
 * | `ocp.<ws>.in.<agent>`                 | JetStream stream    | the durable inbox of one agent (stream `OCP_<ws>_IN_<agent>`); the      |
 * |                                       |                     | stream sequence is the agent's delivery sequence number                 |
 * | `ocp.<ws>.live.<agent>`               | core, per agent     | each stored delivery, republished by the inbox stream (header           |
 * |                                       |                     | `Nats-Sequence`), and transient ones, for the hub the agent is attached |
 * |                                       |                     | to right now                                                            |
 * | `ocp.<ws>.bcast`                      | core, per workspace | transient broadcasts (awareness, collective queries, custom, …)         |
 * | `ocp.<ws>.budgets`                    | core, per workspace | what agents spent of their budgets on each hub (budget-share.ts)        |
 * | `ocp.<ws>.event.<t1>.<t2>…`           | core, per type      | `ocp.event.publish` by event type; subscriptions become NATS wildcards  |
 * |                                       |                     | (`*` → `*`, a final `**` → `>`)                                         |
 * | KV `OCP_<ws>_AGENTS`, key `<agent>`   | JetStream KV        | verified agent profiles (first key pinned cluster-wide)                 |
 * | KV `OCP_<ws>_SUBS`, `<agent>.<sub>`   | JetStream KV        | event subscriptions, read by the hub an agent attaches to               |
 *
 * `<agent>` is the first 128 bits of SHA-256 of the agent's `a2a://` URI in
 * hex: URIs hold `:` and `/`, which are not portable in stream names, and a
 * fixed-length token keeps subjects short. Event-type segments that are not
 * plain `[A-Za-z0-9_-]` (a literal `*`, `>`, spaces, an empty segment) are
 * encoded as `~` + base64url, so a published type can never act as a
 * wildcard and a subscription pattern matches exactly what
 * `matchesEventType` matches.
 */
import { createHash } from "node:crypto";
import { NATS_TOKEN_CACHE_MAX_ENTRIES } from "./limits.js";

/** A workspace name: one subject token. */
export const WORKSPACE_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

/** The workspace used when none is given. */
export const DEFAULT_WORKSPACE = "default";

/** Header of a live durable delivery published by a hub of an earlier release (now the stream republishes it with `Nats-Sequence`). */
export const SEQ_HEADER = "Ocp-Seq";
/** Header naming the sender of a broadcast or event (never delivered back to it). */
export const FROM_HEADER = "Ocp-From";
/** Header of an event publication: its message id (one delivery per agent across overlapping patterns). */
export const ID_HEADER = "Ocp-Msg-Id";
/** Header of a stored delivery: when it may be forgotten, ms since the epoch. */
export const EXPIRES_HEADER = "Ocp-Expires-At";

/** Header of a committed message: when its hub handed it to NATS, ms since the epoch (the `cluster` hop). */
export const PUBLISHED_AT_HEADER = "Ocp-Published-At";

/** Header of a committed message, tracing on: the W3C trace context of its commit span. */
export const TRACEPARENT_HEADER = "traceparent";

const PLAIN_SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;

/** Tokens computed lately: every message names its recipients' subjects (issue 18). */
const tokens = new Map<string, string>();

/** The fixed-length token of an agent URI. */
export function agentToken(agentId: string): string {
  let token = tokens.get(agentId);
  if (token === undefined) {
    token = createHash("sha256").update(agentId).digest("hex").slice(0, 32);
    // Bounded: the oldest entry goes first; a URI over 1 KiB is hashed each time, not kept.
    if (agentId.length <= 1024) {
      if (tokens.size >= NATS_TOKEN_CACHE_MAX_ENTRIES) {
        tokens.delete(tokens.keys().next().value as string);
      }
      tokens.set(agentId, token);
    }
  }
  return token;
}

/** The subject names of one workspace. */
export class Subjects {
  readonly workspace: string;
  readonly prefix: string;

  constructor(workspace: string = DEFAULT_WORKSPACE) {
    if (!WORKSPACE_PATTERN.test(workspace)) {
      throw new RangeError(`workspace must match ${WORKSPACE_PATTERN}: ${workspace}`);
    }
    this.workspace = workspace;
    this.prefix = `ocp.${workspace}`;
  }

  /** The durable inbox subject of an agent. */
  inbox(agentId: string): string {
    return `${this.prefix}.in.${agentToken(agentId)}`;
  }

  /** The JetStream stream holding an agent's inbox. */
  inboxStream(agentId: string): string {
    return `OCP_${this.workspace}_IN_${agentToken(agentId)}`;
  }

  /** Live deliveries to an agent, wherever it is attached. */
  live(agentId: string): string {
    return `${this.prefix}.live.${agentToken(agentId)}`;
  }

  /** Transient broadcasts of the workspace. */
  get broadcast(): string {
    return `${this.prefix}.bcast`;
  }

  /** What agents spent of their budgets on each hub (budget-share.ts). */
  get budgets(): string {
    return `${this.prefix}.budgets`;
  }

  /** The subject an event of `eventType` is published on. */
  event(eventType: string): string {
    return `${this.prefix}.event.${eventType.split(".").map(encodeSegment).join(".")}`;
  }

  /** The subscription subject of an event-type pattern (see `matchesEventType`). */
  eventPattern(pattern: string): string {
    if (pattern === "*" || pattern === "**") return `${this.prefix}.event.>`;
    const segments = pattern.split(".");
    const mapped = segments.map((segment, i) => {
      if (segment === "*") return "*";
      if (segment === "**" && i === segments.length - 1) return ">";
      return encodeSegment(segment);
    });
    return `${this.prefix}.event.${mapped.join(".")}`;
  }

  /** KV bucket of agent profiles. */
  get agentsBucket(): string {
    return `OCP_${this.workspace}_AGENTS`;
  }

  /** KV bucket of event subscriptions. */
  get subscriptionsBucket(): string {
    return `OCP_${this.workspace}_SUBS`;
  }

  /** KV key of one subscription. */
  subscriptionKey(agentId: string, subscriptionId: string): string {
    return `${agentToken(agentId)}.${agentToken(subscriptionId)}`;
  }
}

/** One event-type segment as a subject token (plain, or `~` + base64url). */
export function encodeSegment(segment: string): string {
  if (PLAIN_SEGMENT.test(segment)) return segment;
  return `~${Buffer.from(segment, "utf8").toString("base64url")}`;
}
