/**
 * The hub's side of the control vocabulary (see `protocol.ts`): confirmations
 * of durable deliveries, profile lookups, discovery queries, and the ack and
 * reject frames. Every control frame an agent sends spends one of its
 * budgets (budget.ts).
 */

import {
  type DiscoveryQueryPayload,
  encodeHubControl,
  HUB_TYPES,
  isJsonObject,
} from "@ocp/a2a-ocp-messaging/internal";
import { AgentControlSchema } from "@ocp/a2a-ocp-messaging/schemas";
import { parseJsonText } from "@ocp/types/internal";
import {
  type AgentBudgets,
  type BudgetKind,
  closeIfFlooding,
  overBudgetDetails,
} from "./budget.js";
import type { DiscoveryAnswer, LookupAnswer } from "./discovery.js";
import type { AgentSession } from "./session.js";
import type { HubStore } from "./store.js";

/** The `id` of a message that was refused, when its text is JSON with a top-level string `id`. */
export function messageIdOf(raw: string | undefined): string | undefined {
  if (raw === undefined || raw.length > 4 * 1024 * 1024) return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    if (isJsonObject(value)) {
      const id = value["id"];
      if (typeof id === "string" && id.length <= 256) return id;
    }
  } catch {
    // Not JSON: the reject carries no id.
  }
  return undefined;
}

/** The `queryId` of a refused discovery query, so the asker's wait ends with the reject. */
function discoveryQueryId(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const frame = value as { type?: unknown; payload?: { queryId?: unknown } };
  if (frame.type !== HUB_TYPES.DISCOVERY_QUERY) return undefined;
  const queryId = frame.payload?.queryId;
  return typeof queryId === "string" && queryId.length <= 128 ? queryId : undefined;
}

/** What an `ocp.hub.ack` says about an accepted message. */
export interface AckInit {
  id: string;
  /** Committed to the store (delivered after a reconnect) rather than forwarded live. */
  durable: boolean;
  recipients: number;
  /** Recipients left out by §8.5 visibility. */
  excluded: number;
  /** The message's deadline, ms since the epoch: the hub delivers it until then, never after. */
  expiresAt: number;
}

/** An `ocp.hub.ack` frame; `expiresAt` goes out as ISO 8601. */
export function ackFrame(ack: AckInit): string {
  return encodeHubControl(HUB_TYPES.ACK, {
    ...ack,
    expiresAt: new Date(ack.expiresAt).toISOString(),
  });
}

/** An `ocp.hub.reject` frame. */
export function rejectFrame(
  raw: string | undefined,
  code: string,
  message: string,
  details?: Record<string, unknown>,
  id?: string,
): string {
  const payload: Record<string, unknown> = { code, message };
  const messageId = id ?? messageIdOf(raw);
  if (messageId !== undefined) payload["id"] = messageId;
  if (details !== undefined) payload["details"] = jsonSafe(details);
  return encodeHubControl(HUB_TYPES.REJECT, payload);
}

/** Details reduced to what survives JSON (zod issues hold only plain data; causes are dropped). */
function jsonSafe(details: Record<string, unknown>): Record<string, unknown> {
  try {
    const copy: unknown = JSON.parse(JSON.stringify(details));
    return isJsonObject(copy) ? copy : {};
  } catch {
    return {};
  }
}

/**
 * Spends one refusal of `session`'s agent (not for `store_failed` or
 * `hub_closing`, the hub's own failure or state). Past the budget, answers the refused frame `rate_limited` (or
 * closes the connection), audits only the window's first such refusal, and
 * returns true.
 */
export function refusedOverBudget(
  budgets: AgentBudgets,
  session: AgentSession,
  code: string,
  o: { now: number; raw: string | undefined; id: string | undefined; audit: (why: string) => void },
): boolean {
  if (code === "store_failed" || code === "hub_closing") return false;
  const over = budgets.take(session.agentId, "refused", o.now);
  if (over === undefined) return false;
  const why = `too much refused traffic: at most ${over.limit} per agent`;
  if (over.first) o.audit(why);
  if (!session.open || closeIfFlooding(session.connection, over)) return true;
  session.connection.send(rejectFrame(o.raw, "rate_limited", why, overBudgetDetails(over), o.id));
  return true;
}

export class HubControlHandler {
  readonly #store: HubStore;
  readonly #lookup: (requester: string, agentId: string) => LookupAnswer | Promise<LookupAnswer>;
  readonly #discover: (requester: string, query: DiscoveryQueryPayload) => DiscoveryAnswer;
  readonly #onError: (error: unknown) => void;
  readonly #budgets: AgentBudgets;
  readonly #now: () => number;

  constructor(options: {
    store: HubStore;
    /** §7.3: the cards matching a discovery query that `requester` may see (discovery.ts). */
    discover: (requester: string, query: DiscoveryQueryPayload) => DiscoveryAnswer;
    /**
     * What `requester` may learn of `agentId`: its profile, only its key (a
     * card hidden from it), or nothing (an unknown id). May be asynchronous
     * (a store shared by several hubs).
     */
    lookup: (requester: string, agentId: string) => LookupAnswer | Promise<LookupAnswer>;
    /** The hub's budgets per agent (budget.ts), shared with its refusals of messages. */
    budgets: AgentBudgets;
    now: () => number;
    onError: (error: unknown) => void;
  }) {
    this.#store = options.store;
    this.#lookup = options.lookup;
    this.#discover = options.discover;
    this.#budgets = options.budgets;
    this.#now = options.now;
    this.#onError = options.onError;
  }

  /** Handles one control frame from an agent; each spends the agent's budget of its kind. */
  handle(session: AgentSession, raw: string): void {
    const json = parseJsonText(raw);
    const parsed = AgentControlSchema.safeParse(json.ok ? json.value : undefined);
    if (!parsed.success) {
      const queryId = json.ok ? discoveryQueryId(json.value) : undefined;
      if (this.overBudget(session, "refused", queryId)) return;
      const why = "malformed or unknown hub control frame";
      const issues = parsed.error.issues
        .slice(0, 4)
        .map(({ path, message }) => ({ path, message }));
      session.connection.send(
        rejectFrame(undefined, "hub_frame_invalid", why, { issues }, queryId),
      );
      return;
    }
    const frame = parsed.data;
    if (frame.type === HUB_TYPES.DELIVERED) {
      if (this.overBudget(session, "confirm")) return;
      // Never beyond what this connection was sent: a confirmation cannot drop unsent messages.
      const seq = Math.min(frame.payload.seq, session.sentSeq);
      this.#store.confirm(session.agentId, seq).catch(this.#onError);
      return;
    }
    if (frame.type === HUB_TYPES.DISCOVERY_QUERY) {
      const { queryId } = frame.payload;
      if (this.overBudget(session, "discovery", queryId)) return;
      const answer = this.#discover(session.agentId, frame.payload);
      session.connection.send(encodeHubControl(HUB_TYPES.DISCOVERY_RESULT, { queryId, ...answer }));
      return;
    }
    const agentId = frame.payload.agentId;
    if (this.overBudget(session, "lookup", undefined, { agentId })) return;
    const answer = (found: LookupAnswer) => {
      if (session.connection.state !== "open") return;
      session.connection.send(encodeHubControl(HUB_TYPES.PROFILE, { agentId, ...found }));
    };
    const profile = this.#lookup(session.agentId, agentId);
    if (profile instanceof Promise) {
      profile.then(answer, (error: unknown) => {
        this.#onError(error);
        answer(undefined);
      });
    } else answer(profile);
  }

  /** Spends one frame of `kind`; past the budget, answers `rate_limited` (or closes) and returns true. */
  overBudget(
    session: AgentSession,
    kind: BudgetKind,
    id?: string,
    details: Record<string, unknown> = {},
  ): boolean {
    const over = this.#budgets.take(session.agentId, kind, this.#now());
    if (over === undefined) return false;
    if (closeIfFlooding(session.connection, over)) return true;
    const why = `too many frames: at most ${over.limit} per agent`;
    const all = { ...details, ...overBudgetDetails(over) };
    session.connection.send(rejectFrame(undefined, "rate_limited", why, all, id));
    return true;
  }
}
