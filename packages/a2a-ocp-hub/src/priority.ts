/**
 * §4.1 `priority` where the hub queues messages for an agent: a replay page
 * of stored deliveries (an agent coming back online, or catching up after a
 * backlog) goes out highest priority first — `urgent`, `high`, `normal`
 * (also an absent or unknown value), `low` — and in sequence order within a
 * priority. Only for agents that announced `ocpPriorityOrder` (they take the
 * page's `ocp.hub.batch` frame and keep their resume point until the page is
 * complete); others get sequence order. Live deliveries are not queued, so
 * there is nothing to reorder; bytes already handed to a socket are not
 * reordered either.
 */
import type { PendingDelivery } from "./store.js";

const RANKS: Readonly<Record<string, number>> = { urgent: 3, high: 2, normal: 1, low: 0 };
const NORMAL = 1;

/** The rank of a message's envelope `priority` (read from its exact text). */
export function priorityRank(raw: string): number {
  // Most messages carry no priority: no parse for them.
  if (!raw.includes('"priority"')) return NORMAL;
  try {
    const value = JSON.parse(raw) as { priority?: unknown };
    const priority = value?.priority;
    return typeof priority === "string" ? (RANKS[priority] ?? NORMAL) : NORMAL;
  } catch {
    return NORMAL;
  }
}

/**
 * `page` highest priority first, sequence order kept within a priority
 * (a stable sort); the same array when it is already in that order.
 */
export function byPriority(page: readonly PendingDelivery[]): readonly PendingDelivery[] {
  if (page.length < 2) return page;
  const ranked = page.map((delivery, index) => ({
    delivery,
    index,
    rank: priorityRank(delivery.raw),
  }));
  if (ranked.every((r, i) => i === 0 || (ranked[i - 1] as { rank: number }).rank >= r.rank)) {
    return page;
  }
  ranked.sort((a, b) => b.rank - a.rank || a.index - b.index);
  return ranked.map((r) => r.delivery);
}
