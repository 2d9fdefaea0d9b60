/**
 * Budgets per agent: what one agent may make the hub do outside the §12.3
 * message rate limits — discovery queries, profile lookups, delivery
 * confirmations, bare §7.2 announces, and refused traffic (malformed control frames, messages the
 * hub refuses). Each budget counts per agent id in fixed windows of
 * {@link HUB_BUDGET_WINDOW_MS}, so a reconnect does not refill it. A frame
 * past its budget is answered `rate_limited` with the wait in `details`;
 * past {@link HUB_OVER_BUDGET_FRAMES_BEFORE_CLOSE} such frames in one window
 * the connection is closed (4008). Counters live in the hub's memory; hubs
 * of a cluster share what each agent spent ({@link AgentBudgets.drain} on
 * one hub, {@link AgentBudgets.credit} on the others, every
 * `NATS_BUDGET_SHARE_INTERVAL_MS`), so an agent that moves between hubs
 * finds its budgets spent there too.
 */
import { CLOSE_CODES } from "@ocp/transport-ws";
import {
  HUB_BARE_ANNOUNCES_PER_MINUTE,
  HUB_BUDGET_WINDOW_MS,
  HUB_CONFIRMATIONS_PER_MINUTE,
  HUB_DISCOVERY_QUERIES_PER_MINUTE,
  HUB_LOOKUPS_PER_MINUTE,
  HUB_OVER_BUDGET_FRAMES_BEFORE_CLOSE,
  HUB_REFUSALS_PER_MINUTE,
} from "./limits.js";

/** What a frame spends. */
export type BudgetKind = "discovery" | "lookup" | "confirm" | "announce" | "refused";

/** Each budget: its size per window and the name of its constant (sent in `details.limit`). */
export const BUDGETS: Readonly<Record<BudgetKind, { perWindow: number; limit: string }>> = {
  discovery: {
    perWindow: HUB_DISCOVERY_QUERIES_PER_MINUTE,
    limit: "HUB_DISCOVERY_QUERIES_PER_MINUTE",
  },
  lookup: { perWindow: HUB_LOOKUPS_PER_MINUTE, limit: "HUB_LOOKUPS_PER_MINUTE" },
  confirm: { perWindow: HUB_CONFIRMATIONS_PER_MINUTE, limit: "HUB_CONFIRMATIONS_PER_MINUTE" },
  announce: { perWindow: HUB_BARE_ANNOUNCES_PER_MINUTE, limit: "HUB_BARE_ANNOUNCES_PER_MINUTE" },
  refused: { perWindow: HUB_REFUSALS_PER_MINUTE, limit: "HUB_REFUSALS_PER_MINUTE" },
};

/** A frame past its budget: how long until the window ends, and what the hub does next. */
export interface OverBudget {
  /** The constant whose budget is spent. */
  limit: string;
  /** Milliseconds until the agent's window ends and its budgets are whole again. */
  retryAfterMs: number;
  /** The first frame past this budget in the window (the one refusal the audit log records). */
  first: boolean;
  /** Too many frames past a budget in this window: the hub closes the connection. */
  close: boolean;
}

interface Window {
  start: number;
  used: Record<BudgetKind, number>;
  /** Frames past any budget in this window. */
  over: number;
}

/** What one agent spent on one hub since the last share: frames per budget. */
export interface BudgetSpend {
  agentId: string;
  spent: Partial<Record<BudgetKind, number>>;
}

const KINDS = Object.keys(BUDGETS) as BudgetKind[];

export class AgentBudgets {
  readonly #windows = new Map<string, Window>();
  readonly #windowMs = HUB_BUDGET_WINDOW_MS;
  /** Frames taken here since the last {@link drain}, for the other hubs of a cluster. */
  readonly #unshared = new Map<string, Partial<Record<BudgetKind, number>>>();
  #pruned = 0;

  /** Spends one frame of `kind` for `agentId`: `undefined` when within budget. */
  take(agentId: string, kind: BudgetKind, now: number): OverBudget | undefined {
    const window = this.#window(agentId, now);
    const unshared = this.#unshared.get(agentId) ?? {};
    unshared[kind] = (unshared[kind] ?? 0) + 1;
    this.#unshared.set(agentId, unshared);
    const { perWindow, limit } = BUDGETS[kind];
    if (window.used[kind] < perWindow) {
      window.used[kind] += 1;
      return undefined;
    }
    window.over += 1;
    window.used[kind] += 1;
    return {
      limit,
      retryAfterMs: Math.max(0, window.start + this.#windowMs - now),
      first: window.used[kind] === perWindow + 1,
      close: window.over > HUB_OVER_BUDGET_FRAMES_BEFORE_CLOSE,
    };
  }

  /** What agents spent here since the last call (and forgets it): what this hub tells the others. */
  drain(): BudgetSpend[] {
    const spends = [...this.#unshared].map(([agentId, spent]) => ({ agentId, spent }));
    this.#unshared.clear();
    return spends;
  }

  /**
   * Counts what `spend.agentId` spent on another hub into its current window
   * here (a window that starts now if it has none). Counts that are not
   * non-negative integers are ignored; a credit never closes a connection.
   */
  credit(spend: BudgetSpend, now: number): void {
    const window = this.#window(spend.agentId, now);
    for (const kind of KINDS) {
      const count = spend.spent[kind];
      if (Number.isSafeInteger(count) && (count as number) > 0)
        window.used[kind] += count as number;
    }
  }

  #window(agentId: string, now: number): Window {
    this.#prune(now);
    let window = this.#windows.get(agentId);
    if (window === undefined || now - window.start >= this.#windowMs || now < window.start) {
      window = {
        start: now,
        used: { discovery: 0, lookup: 0, confirm: 0, announce: 0, refused: 0 },
        over: 0,
      };
      this.#windows.set(agentId, window);
    }
    return window;
  }

  /** Agents with a window open (for tests and stats). */
  get size(): number {
    return this.#windows.size;
  }

  /** Drops ended windows, at most once per window length (the table stays as big as one window's agents). */
  #prune(now: number): void {
    if (now - this.#pruned < this.#windowMs) return;
    this.#pruned = now;
    for (const [agentId, window] of this.#windows) {
      if (now - window.start >= this.#windowMs) this.#windows.delete(agentId);
    }
  }
}

/** The `details` of a `rate_limited` answer to a frame past its budget. */
export function overBudgetDetails(over: OverBudget): Record<string, unknown> {
  return { limit: over.limit, retryAfterMs: over.retryAfterMs };
}

/** Closes `connection` when `over` says so (4008); true when it did. */
export function closeIfFlooding(
  connection: { close(code: number, reason: string): unknown },
  over: OverBudget,
): boolean {
  if (!over.close) return false;
  connection.close(CLOSE_CODES.POLICY_VIOLATION, "too many frames past the hub's budgets");
  return true;
}
