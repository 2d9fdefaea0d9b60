/**
 * §3 audit logging: an append-only log of what a hub (or a listening agent)
 * accepted, refused (with the reason), delivered and let expire. This module
 * is the contract and an in-memory log; the hub's SQLite log is
 * `SqliteAuditLog` in `@ocp/a2a-ocp-hub`. Entries are only ever appended;
 * the one removal is {@link AuditLog.prune}, which drops entries older than
 * the log's retention.
 */
import { OcpError } from "@ocp/types";

/** What happened to a message. */
export const AUDIT_EVENTS = ["accepted", "refused", "delivered", "expired"] as const;
export type AuditEventKind = (typeof AUDIT_EVENTS)[number];

/** Retention of an audit log when none is given: 7 days, ms. */
export const AUDIT_RETENTION_DEFAULT_MS = 7 * 24 * 60 * 60 * 1000;

/** One audit entry. */
export interface AuditEntry {
  /** When, ms since the epoch. */
  readonly at: number;
  readonly event: AuditEventKind;
  /** The message id; absent when a refused message had none readable. */
  readonly id?: string | undefined;
  /** The message type, when readable. */
  readonly type?: string | undefined;
  /** The sender: the message's `from`, or the authenticated agent of a refused one. */
  readonly from: string;
  /**
   * The recipients: the one agent a message was delivered to (or expired
   * for); the message's `to` for accepted and refused ones.
   */
  readonly to: readonly string[];
  /** Refused: the error code answered. */
  readonly code?: string | undefined;
  /** Refused: why, as answered to the sender. */
  readonly reason?: string | undefined;
}

/** What to read from a log; every field narrows. */
export interface AuditQuery {
  /** Entries sent by or addressed to this agent. */
  readonly agent?: string | undefined;
  /** From this time on, ms since the epoch (inclusive). */
  readonly since?: number | undefined;
  readonly event?: AuditEventKind | undefined;
  /** At most this many entries, oldest first (default and cap: {@link AUDIT_QUERY_CAP}). */
  readonly limit?: number | undefined;
}

/** Most entries one query returns. */
export const AUDIT_QUERY_CAP = 10_000;

/** An append-only audit log. */
export interface AuditLog {
  /** How long an entry is kept, ms. */
  readonly retentionMs: number;
  /** Appends an entry. Never throws for a well-formed entry; storage failures go to the log's `onError`. */
  append(entry: AuditEntry): void;
  /** Entries matching `query`, oldest first. */
  query(query?: AuditQuery): Promise<AuditEntry[]>;
  /** Drops the entries older than `now - retentionMs`; resolves with how many went. */
  prune(now: number): Promise<number>;
  close(): Promise<void>;
}

/** Throws `invalid_option` unless `retentionMs` is a positive finite number of ms. */
export function assertAuditRetention(retentionMs: number): void {
  if (!Number.isFinite(retentionMs) || retentionMs <= 0) {
    throw new OcpError(
      "invalid_option",
      `audit retention must be a positive number of ms, not ${String(retentionMs)}`,
    );
  }
}

/** Whether `entry` matches `query` (the in-memory filter; stores do the same in their query). */
export function auditMatches(entry: AuditEntry, query: AuditQuery): boolean {
  if (query.since !== undefined && entry.at < query.since) return false;
  if (query.event !== undefined && entry.event !== query.event) return false;
  if (query.agent !== undefined && entry.from !== query.agent && !entry.to.includes(query.agent))
    return false;
  return true;
}

/** The recipients of a message's `to` field as an array (`broadcast` stays `["broadcast"]`). */
export function auditRecipients(to: unknown): string[] {
  if (typeof to === "string") return [to];
  if (Array.isArray(to)) return to.filter((value): value is string => typeof value === "string");
  return [];
}

/** Most entries a {@link MemoryAuditLog} keeps whatever its retention (oldest dropped first). */
export const AUDIT_MEMORY_MAX_ENTRIES = 100_000;

/** An audit log in memory: for tests and short-lived processes; bounded by retention and entry count. */
export class MemoryAuditLog implements AuditLog {
  readonly retentionMs: number;
  readonly maxEntries: number;
  readonly #entries: AuditEntry[] = [];
  /** Index of the oldest live entry (the array is compacted when half is dead). */
  #start = 0;

  constructor(options: { retentionMs?: number; maxEntries?: number } = {}) {
    this.retentionMs = options.retentionMs ?? AUDIT_RETENTION_DEFAULT_MS;
    assertAuditRetention(this.retentionMs);
    this.maxEntries = options.maxEntries ?? AUDIT_MEMORY_MAX_ENTRIES;
    if (!Number.isSafeInteger(this.maxEntries) || this.maxEntries < 1) {
      throw new OcpError("invalid_option", "maxEntries must be a positive integer");
    }
  }

  get size(): number {
    return this.#entries.length - this.#start;
  }

  append(entry: AuditEntry): void {
    this.#entries.push(Object.freeze({ ...entry, to: Object.freeze([...entry.to]) }));
    if (this.size > this.maxEntries) this.#drop(this.size - this.maxEntries);
  }

  async query(query: AuditQuery = {}): Promise<AuditEntry[]> {
    const limit = Math.min(query.limit ?? AUDIT_QUERY_CAP, AUDIT_QUERY_CAP);
    const out: AuditEntry[] = [];
    for (let i = this.#start; i < this.#entries.length && out.length < limit; i += 1) {
      const entry = this.#entries[i]!;
      if (auditMatches(entry, query)) out.push(entry);
    }
    return out;
  }

  async prune(now: number): Promise<number> {
    const cutoff = now - this.retentionMs;
    let dead = 0;
    // Entries are appended in time order (up to clock steps): drop the old head.
    while (
      this.#start + dead < this.#entries.length &&
      this.#entries[this.#start + dead]!.at < cutoff
    )
      dead += 1;
    this.#drop(dead);
    return dead;
  }

  async close(): Promise<void> {}

  #drop(count: number): void {
    this.#start += count;
    if (this.#start > 1024 && this.#start * 2 > this.#entries.length) {
      this.#entries.splice(0, this.#start);
      this.#start = 0;
    }
  }
}
