import type {
  AwarenessBeaconPayload,
  AwarenessQueryPayload,
  AwarenessResponsePayload,
  AwarenessUpdatePayload,
} from "@ocp/a2a-ocp-messaging";
import { PRESENCE_STALE_MS } from "./limits.js";

/**
 * The presence table (§5.4): the last beacon of each agent, patched by
 * updates. An entry not refreshed for `staleAfterMs` (default
 * {@link PRESENCE_STALE_MS}) reads as `status: "away"`,
 * `availability: "away"`; an update for an agent whose beacon was never seen
 * starts from `idle` / `available`.
 */
export class PresenceTable {
  readonly #entries = new Map<string, { awareness: AwarenessBeaconPayload; seenAt: number }>();

  constructor(
    private readonly staleAfterMs: number = PRESENCE_STALE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  beacon(agentId: string, awareness: AwarenessBeaconPayload): void {
    this.#entries.set(agentId, { awareness: { ...awareness }, seenAt: this.now() });
  }

  update(agentId: string, update: AwarenessUpdatePayload): void {
    const base = this.#entries.get(agentId)?.awareness ?? {
      status: "idle",
      availability: "available",
    };
    const changes = Object.fromEntries(
      Object.entries(update.changes).filter(([, v]) => v !== undefined),
    );
    this.#entries.set(agentId, {
      awareness: { ...base, ...changes } as AwarenessBeaconPayload,
      seenAt: this.now(),
    });
  }

  /** One agent's presence, `away` when stale. */
  get(agentId: string): AwarenessBeaconPayload | undefined {
    const entry = this.#entries.get(agentId);
    if (entry === undefined) return undefined;
    if (this.now() - entry.seenAt > this.staleAfterMs) {
      return { ...entry.awareness, status: "away", availability: "away" };
    }
    return entry.awareness;
  }

  /** §5.4.3 filters: status and availability lists, and a substring of the task (case-insensitive). */
  query(filters: AwarenessQueryPayload["filters"]): AwarenessResponsePayload["agents"] {
    const out: AwarenessResponsePayload["agents"] = [];
    for (const agentId of [...this.#entries.keys()].sort()) {
      const awareness = this.get(agentId);
      if (awareness === undefined) continue;
      if (
        filters?.status !== undefined &&
        filters.status.length > 0 &&
        !filters.status.includes(awareness.status)
      ) {
        continue;
      }
      if (
        filters?.availability !== undefined &&
        filters.availability.length > 0 &&
        !filters.availability.includes(awareness.availability)
      ) {
        continue;
      }
      if (filters?.task !== undefined) {
        const task = awareness.currentContext?.task ?? "";
        if (!task.toLowerCase().includes(filters.task.toLowerCase())) continue;
      }
      out.push({ agentId, awareness });
    }
    return out;
  }

  /** Every entry, as sync sends it (scope `awareness`). */
  entries(): AwarenessResponsePayload["agents"] {
    return this.query(undefined);
  }
}
