/**
 * The §7.1 `limits` an agent declares in its signed profile
 * (`capabilities.ocp.limits`), and how the hub honours them (see
 * docs/a2a-ocp-wire.md, "Declared limits"):
 *
 * - `maxStreamBandwidth` (bytes/s): the hub paces what it sends the agent
 *   ({@link Pacer}, a bucket of one second's bytes). Durable messages wait in
 *   the store and go out as the budget refills; transient ones over budget
 *   are dropped (they are live-only anyway) and audited as refused.
 * - `maxConcurrentQueries`: the hub gives the agent at most that many
 *   `ocp.collective.query` at once; one is open until the agent sends its
 *   `ocp.collective.response` (same `queryId`) or the query's `timeout`.
 * - `maxSubscriptions`: the hub passes at most that many open
 *   `ocp.knowledge.subscribe` to the agent (one per subscriber and
 *   `subscriptionId`, until its `ocp.knowledge.unsubscribe`).
 *
 * A recipient over its limit is left out of the message's recipients
 * (`excluded` in the ack); a message whose every named recipient is over
 * its limit is refused with `recipient_limit`. A profile whose limits are
 * malformed is refused at registration.
 */
import type { AgentProfile } from "@ocp/a2a-ocp-messaging";
import { BROADCAST } from "@ocp/a2a-ocp-messaging";
import { isJsonObject } from "@ocp/a2a-ocp-messaging/internal";
import { z } from "zod";

const Count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** §7.1 `limits`; unknown members are kept and ignored. */
export const DeclaredLimitsSchema = z.looseObject({
  maxStreamBandwidth: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  maxSubscriptions: Count.optional(),
  maxConcurrentQueries: Count.optional(),
});
export type DeclaredLimits = z.infer<typeof DeclaredLimitsSchema>;

/**
 * The limits of a profile: `{}` when it declares none, or the reason they
 * cannot be read (the hub refuses such a profile).
 */
export function declaredLimits(profile: AgentProfile): DeclaredLimits | { malformed: string } {
  const capabilities: unknown = profile["capabilities"];
  const ocp = (capabilities as { ocp?: unknown } | undefined)?.ocp;
  const limits = (ocp as { limits?: unknown } | undefined)?.limits;
  if (limits === undefined) return {};
  const parsed = DeclaredLimitsSchema.safeParse(limits);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return {
    malformed: `capabilities.ocp.limits${issue?.path.length ? `.${issue.path.join(".")}` : ""}: ${issue?.message ?? "malformed"}`,
  };
}

/** The readable limits of a profile (none when it declares none or they are malformed). */
export function limitsOfProfile(profile: AgentProfile | undefined): DeclaredLimits | undefined {
  if (profile === undefined) return undefined;
  const limits = declaredLimits(profile);
  return "malformed" in limits ? undefined : limits;
}

/** The pacer of an agent that declares `maxStreamBandwidth`. */
export function pacerFor(profile: AgentProfile | undefined, now: () => number): Pacer | undefined {
  const bandwidth = limitsOfProfile(profile)?.maxStreamBandwidth;
  return bandwidth === undefined ? undefined : new Pacer(bandwidth, now);
}

/**
 * A byte budget of `bytesPerSecond`, holding at most one second's worth. A
 * send may go while the budget is positive and may take it below zero (a
 * message larger than a second's budget still goes, alone); the next waits
 * until it is positive again. Over any window of T seconds the agent gets at
 * most `bytesPerSecond × (T + 1)` plus one message.
 */
export class Pacer {
  readonly bytesPerSecond: number;
  readonly #now: () => number;
  #tokens: number;
  #at: number;

  constructor(bytesPerSecond: number, now: () => number) {
    this.bytesPerSecond = bytesPerSecond;
    this.#now = now;
    this.#tokens = bytesPerSecond;
    this.#at = now();
  }

  #refill(): void {
    const now = this.#now();
    if (now > this.#at) {
      this.#tokens = Math.min(
        this.bytesPerSecond,
        this.#tokens + ((now - this.#at) * this.bytesPerSecond) / 1000,
      );
    }
    this.#at = now;
  }

  /** Takes `bytes` when the budget is positive; false (nothing taken) when it is spent. */
  take(bytes: number): boolean {
    this.#refill();
    if (this.#tokens <= 0) return false;
    this.#tokens -= bytes;
    return true;
  }

  /** Ms until the budget is positive again (0 when it is). */
  waitMs(): number {
    this.#refill();
    return this.#tokens > 0 ? 0 : Math.ceil(((1 - this.#tokens) * 1000) / this.bytesPerSecond);
  }
}

/** The open queries and subscriptions the hub gave each limited agent. */
export class RecipientLimits {
  readonly #known: ReadonlyMap<string, { profile: AgentProfile }>;
  readonly #now: () => number;
  /** Agent → queryId → until when it is open (ms). */
  readonly #queries = new Map<string, Map<string, number>>();
  /** Agent → `subscriber subscriptionId` of its open knowledge subscriptions. */
  readonly #subscribers = new Map<string, Set<string>>();

  /** `known`: the hub's registered agents, whose profiles declare the limits. */
  constructor(known: ReadonlyMap<string, { profile: AgentProfile }>, now: () => number) {
    this.#known = known;
    this.#now = now;
  }

  /**
   * Applies the recipients' limits to a routed message (before delivery):
   * moves the recipients over a limit to `excluded` and holds a slot of each
   * other limited recipient. Returns the reason to refuse the message when
   * every named recipient is over its limit (nothing held then), and
   * `settle`, to call once the message is accepted (`true`: what an answer
   * or an unsubscription closes is freed) or refused after all (`false`: the
   * slots it held are given back). A refused message changes no count.
   */
  apply(
    wire: { from: string; to: unknown; type: string },
    payload: unknown,
    decided: { recipients: string[]; excluded: string[] },
  ): { refused?: string; settle: (accepted: boolean) => void } {
    const p = isJsonObject(payload) ? payload : {};
    const key = typeof p["queryId"] === "string" ? p["queryId"] : p["subscriptionId"];
    if (typeof key !== "string") return { settle: NOTHING };
    const frees = () => {
      if (wire.type === "ocp.collective.response") this.#queries.get(wire.from)?.delete(key);
      if (wire.type === "ocp.knowledge.unsubscribe")
        for (const agent of decided.recipients)
          this.#subscribers.get(agent)?.delete(`${wire.from} ${key}`);
    };
    const query = wire.type === "ocp.collective.query";
    if (!query && wire.type !== "ocp.knowledge.subscribe") {
      return { settle: (accepted) => accepted && frees() };
    }
    const now = this.#now();
    const until = now + (typeof p["timeout"] === "number" ? p["timeout"] : 0);
    const kept: string[] = [];
    const over: string[] = [];
    const undo: Array<() => void> = [];
    for (const agent of decided.recipients) {
      const limits = this.#limitsOf(agent);
      const max = query ? limits?.maxConcurrentQueries : limits?.maxSubscriptions;
      if (max === undefined) {
        kept.push(agent);
        continue;
      }
      const taken = query
        ? this.#takeQuery(agent, key, max, now, until)
        : this.#takeSubscription(agent, `${wire.from} ${key}`, max);
      if (taken === undefined) over.push(agent);
      else {
        kept.push(agent);
        undo.push(taken);
      }
    }
    const settle = (accepted: boolean) => {
      if (!accepted) for (const give of undo) give();
    };
    if (over.length === 0) return { settle };
    decided.recipients = kept;
    decided.excluded.push(...over);
    if (kept.length > 0 || wire.to === BROADCAST) return { settle };
    const what = query ? "maxConcurrentQueries" : "maxSubscriptions";
    const limits = this.#limitsOf(over[0]!);
    return {
      refused: `${over.join(", ")} declared ${what} ${String(limits?.[what])} (§7.1) and is at it`,
      settle,
    };
  }

  #limitsOf(agentId: string): DeclaredLimits | undefined {
    return limitsOfProfile(this.#known.get(agentId)?.profile);
  }

  /**
   * Opens query `key` for `agent` unless it has `max` open: the function
   * that gives it back, or `undefined` when the agent is full.
   */
  #takeQuery(
    agent: string,
    key: string,
    max: number,
    now: number,
    until: number,
  ): (() => void) | undefined {
    const open = this.#queries.get(agent) ?? new Map<string, number>();
    this.#queries.set(agent, open);
    for (const [id, end] of open) if (end <= now) open.delete(id);
    if (open.size >= max && !open.has(key)) return undefined;
    const before = open.get(key);
    open.set(key, until);
    return () => {
      if (open.get(key) !== until) return; // changed since: not ours to give back
      if (before === undefined) open.delete(key);
      else open.set(key, before);
    };
  }

  /** Opens subscription `sub` to `agent` unless it has `max` open: its give-back, or `undefined` when full. */
  #takeSubscription(agent: string, sub: string, max: number): (() => void) | undefined {
    const open = this.#subscribers.get(agent) ?? new Set<string>();
    this.#subscribers.set(agent, open);
    if (open.size >= max && !open.has(sub)) return undefined;
    if (open.has(sub)) return NOTHING; // a repeated subscribe is no new one
    open.add(sub);
    return () => open.delete(sub);
  }
}

const NOTHING = (): void => {};
