/**
 * §3 audit logging: an append-only log of what a hub (or a listening agent)
 * accepted, refused (with the reason), delivered and let expire. This module
 * is the contract and an in-memory log; the hub's SQLite log is
 * `SqliteAuditLog` in `@ocp/a2a-ocp-hub`. Entries are only ever appended;
 * the one removal is {@link AuditLog.prune}, which drops entries older than
 * the log's retention.
 */
import { messagingError } from "./errors.js";
import {
  AUDIT_MAX_AGENT_CHARS,
  AUDIT_MAX_CODE_CHARS,
  AUDIT_MAX_ID_CHARS,
  AUDIT_MAX_REASON_CHARS,
  AUDIT_MAX_RECIPIENTS,
  AUDIT_MAX_TYPE_CHARS,
} from "./limits.js";

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
  /** At most this many entries, oldest first (default and cap: `AUDIT_QUERY_CAP`). */
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
    throw messagingError(
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

/**
 * `text` cut to `max` characters with a marker saying how many were left out
 * (`…[+N chars]`); unchanged when it fits. Never splits a surrogate pair.
 */
export function auditTruncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…[+${text.length - end} chars]`;
}

/**
 * The entry with every field bounded (the `AUDIT_MAX_*` limits): what a
 * sender chose (a refused message's id, type, recipients) is stored cut with
 * a marker, never whole. Every {@link AuditLog} here stores entries through it.
 */
export function boundAuditEntry(entry: AuditEntry): AuditEntry {
  const to = entry.to
    .slice(0, AUDIT_MAX_RECIPIENTS)
    .map((agent) => auditTruncate(agent, AUDIT_MAX_AGENT_CHARS));
  if (entry.to.length > AUDIT_MAX_RECIPIENTS)
    to.push(`…[+${entry.to.length - AUDIT_MAX_RECIPIENTS} recipients]`);
  const opt = (key: "id" | "type" | "code" | "reason", max: number) => {
    const value = entry[key];
    return value === undefined ? {} : { [key]: auditTruncate(value, max) };
  };
  return {
    at: entry.at,
    event: entry.event,
    ...opt("id", AUDIT_MAX_ID_CHARS),
    ...opt("type", AUDIT_MAX_TYPE_CHARS),
    from: auditTruncate(entry.from, AUDIT_MAX_AGENT_CHARS),
    to,
    ...opt("code", AUDIT_MAX_CODE_CHARS),
    ...opt("reason", AUDIT_MAX_REASON_CHARS),
  };
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
      throw messagingError("invalid_option", "maxEntries must be a positive integer");
    }
  }

  get size(): number {
    return this.#entries.length - this.#start;
  }

  append(entry: AuditEntry): void {
    const bounded = boundAuditEntry(entry);
    this.#entries.push(Object.freeze({ ...bounded, to: Object.freeze(bounded.to) }));
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
