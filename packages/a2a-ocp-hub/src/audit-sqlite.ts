/**
 * The §3 audit log on SQLite (the `audit` table, by default in the hub's own
 * file). Append-only: triggers refuse every UPDATE, and every DELETE of an
 * entry younger than the retention recorded in `audit_meta`, so only
 * {@link SqliteAuditLog.prune} (retention) ever removes anything. Appends
 * are buffered and written in one transaction per event-loop turn.
 */
import {
  AUDIT_EVENTS,
  AUDIT_QUERY_CAP,
  AUDIT_RETENTION_DEFAULT_MS,
  type AuditEntry,
  type AuditLog,
  type AuditQuery,
  assertAuditRetention,
} from "@ocp/a2a-ocp-messaging";
import { OcpError } from "@ocp/types";
import Database from "better-sqlite3";
import { z } from "zod";

export interface SqliteAuditLogOptions {
  /** The database file (created if absent unless `readonly`); `:memory:` for one that does not survive. */
  path: string;
  /** How long entries are kept, ms (default 7 days). */
  retentionMs?: number;
  /** Open for reading only (the `ocp-hub audit` command): the file must exist; nothing is written. */
  readonly?: boolean;
  /** Where write failures go; stderr by default. */
  onError?: (error: unknown) => void;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS audit (
  at INTEGER NOT NULL,
  event TEXT NOT NULL,
  message_id TEXT,
  type TEXT,
  sender TEXT NOT NULL,
  recipients TEXT NOT NULL,
  code TEXT,
  reason TEXT
);
CREATE INDEX IF NOT EXISTS audit_at ON audit (at);
CREATE INDEX IF NOT EXISTS audit_sender ON audit (sender, at);
CREATE TABLE IF NOT EXISTS audit_meta (
  one INTEGER PRIMARY KEY CHECK (one = 1),
  retention_ms INTEGER NOT NULL
);
CREATE TRIGGER IF NOT EXISTS audit_no_update BEFORE UPDATE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS audit_retention_only BEFORE DELETE ON audit
WHEN OLD.at >= CAST(strftime('%s', 'now') AS INTEGER) * 1000
             - (SELECT retention_ms FROM audit_meta WHERE one = 1)
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: only entries past retention may go'); END;
`;

const RowSchema = z.object({
  at: z.number(),
  event: z.enum(AUDIT_EVENTS),
  message_id: z.string().nullable(),
  type: z.string().nullable(),
  sender: z.string(),
  recipients: z.string(),
  code: z.string().nullable(),
  reason: z.string().nullable(),
});

function entryOf(row: unknown): AuditEntry {
  const r = RowSchema.parse(row);
  let to: unknown;
  try {
    to = JSON.parse(r.recipients);
  } catch {
    to = [];
  }
  return {
    at: r.at,
    event: r.event,
    ...(r.message_id === null ? {} : { id: r.message_id }),
    ...(r.type === null ? {} : { type: r.type }),
    from: r.sender,
    to: Array.isArray(to) ? to.filter((v): v is string => typeof v === "string") : [],
    ...(r.code === null ? {} : { code: r.code }),
    ...(r.reason === null ? {} : { reason: r.reason }),
  };
}

export class SqliteAuditLog implements AuditLog {
  readonly path: string;
  readonly retentionMs: number;
  readonly #db: Database.Database;
  readonly #readonly: boolean;
  readonly #onError: (error: unknown) => void;
  #buffer: AuditEntry[] = [];
  #scheduled: NodeJS.Immediate | undefined;
  #closed = false;
  readonly #write: ((entries: readonly AuditEntry[]) => void) | undefined;

  constructor(options: SqliteAuditLogOptions) {
    this.path = options.path;
    this.retentionMs = options.retentionMs ?? AUDIT_RETENTION_DEFAULT_MS;
    assertAuditRetention(this.retentionMs);
    this.#readonly = options.readonly === true;
    this.#onError =
      options.onError ?? ((error) => process.stderr.write(`ocp-hub audit: ${String(error)}\n`));
    try {
      this.#db = new Database(options.path, {
        readonly: this.#readonly,
        fileMustExist: this.#readonly,
      });
    } catch (cause) {
      throw new OcpError("store_failed", `cannot open the audit log ${options.path}`, { cause });
    }
    this.#db.pragma("busy_timeout = 5000");
    if (this.#readonly) {
      const table = this.#db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'audit'")
        .get();
      if (table === undefined)
        throw new OcpError("store_failed", `${options.path} holds no audit log`);
      this.#write = undefined;
      return;
    }
    this.#db.pragma("journal_mode = WAL");
    this.#db.pragma("synchronous = NORMAL");
    this.#db.exec(SCHEMA);
    this.#db
      .prepare(
        "INSERT INTO audit_meta (one, retention_ms) VALUES (1, ?) ON CONFLICT (one) DO UPDATE SET retention_ms = excluded.retention_ms",
      )
      .run(this.retentionMs);
    const insert = this.#db.prepare(
      "INSERT INTO audit (at, event, message_id, type, sender, recipients, code, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    );
    this.#write = this.#db.transaction((entries: readonly AuditEntry[]) => {
      for (const e of entries) {
        insert.run(
          e.at,
          e.event,
          e.id ?? null,
          e.type ?? null,
          e.from,
          JSON.stringify(e.to),
          e.code ?? null,
          e.reason ?? null,
        );
      }
    });
  }

  append(entry: AuditEntry): void {
    if (this.#write === undefined)
      throw new OcpError("invalid_option", "the audit log is read-only");
    if (this.#closed) return;
    this.#buffer.push(entry);
    this.#scheduled ??= setImmediate(() => this.flush());
  }

  /** Writes the buffered entries now (appends are otherwise written at the end of the turn). */
  flush(): void {
    if (this.#scheduled !== undefined) clearImmediate(this.#scheduled);
    this.#scheduled = undefined;
    if (this.#buffer.length === 0 || this.#write === undefined) return;
    const entries = this.#buffer;
    this.#buffer = [];
    try {
      this.#write(entries);
    } catch (error) {
      this.#onError(error);
    }
  }

  async query(query: AuditQuery = {}): Promise<AuditEntry[]> {
    this.flush();
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.since !== undefined) {
      where.push("at >= ?");
      params.push(query.since);
    }
    if (query.event !== undefined) {
      where.push("event = ?");
      params.push(query.event);
    }
    if (query.agent !== undefined) {
      where.push("(sender = ? OR EXISTS (SELECT 1 FROM json_each(recipients) WHERE value = ?))");
      params.push(query.agent, query.agent);
    }
    const limit = Math.min(query.limit ?? AUDIT_QUERY_CAP, AUDIT_QUERY_CAP);
    const sql = `SELECT at, event, message_id, type, sender, recipients, code, reason FROM audit${
      where.length === 0 ? "" : ` WHERE ${where.join(" AND ")}`
    } ORDER BY at, rowid LIMIT ${limit}`;
    return this.#db
      .prepare(sql)
      .all(...params)
      .map(entryOf);
  }

  async prune(now: number): Promise<number> {
    if (this.#readonly) return 0;
    this.flush();
    // Never ahead of the wall clock the append-only trigger checks against.
    const cutoff = Math.min(now, Date.now()) - this.retentionMs;
    return this.#db.prepare("DELETE FROM audit WHERE at < ?").run(cutoff).changes;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.flush();
    this.#closed = true;
    this.#db.close();
  }
}
