/**
 * The §3 audit log on SQLite (the `audit_log` table, by default in the hub's
 * own file), hash-chained ({@link chainHash}): each row's hash covers the
 * previous row's, so a deleted, edited or reordered row breaks the chain and
 * {@link SqliteAuditLog.verify} (`ocp-hub audit --verify`) names it.
 * Triggers refuse every UPDATE, and every DELETE of a row whose `keep_until`
 * (its time plus the retention in force when it was written) has not
 * passed. A retention change is itself a chained `retention` record and
 * applies only to entries written after it; {@link SqliteAuditLog.prune}
 * removes the oldest rows only, after checking their hashes, and chains a
 * `pruned` record carrying the hash of the last one it removed. Fields are
 * bounded ({@link boundAuditEntry}). Appends are buffered, hashed in memory
 * and written in one transaction per event-loop turn (no fsync per row).
 */
import type { AuditEntry, AuditLog, AuditQuery } from "@ocp/a2a-ocp-messaging";
import {
  AUDIT_EVENTS,
  AUDIT_QUERY_CAP,
  AUDIT_RETENTION_DEFAULT_MS,
  assertAuditRetention,
  boundAuditEntry,
} from "@ocp/a2a-ocp-messaging/internal";
import Database from "better-sqlite3";
import {
  AUDIT_CHAIN_GENESIS,
  AUDIT_TRIGGERS,
  CHAIN_COLUMNS,
  type ChainRow,
  ChainRowSchema,
  type ChainVerdict,
  chainHash,
  chainValues,
  PrunedDetailSchema,
  pruneIndex,
  retentionOf,
  verifyChain,
} from "./audit-chain.js";
import { entryOf, migrateUnchained } from "./audit-legacy.js";
import { hubError } from "./errors.js";

export interface SqliteAuditLogOptions {
  /** The database file (created if absent unless `readonly`); `:memory:` for one that does not survive. */
  path: string;
  /** How long entries are kept, ms (default 7 days); a change applies to entries written after it. */
  retentionMs?: number;
  /** Open for reading only (the `ocp-hub audit` command): the file must exist; nothing is written. */
  readonly?: boolean;
  /** Where write failures (and tampering found while pruning) go; stderr by default. */
  onError?: (error: unknown) => void;
  /** The clock of the log's own `retention` and `pruned` records, ms (default `Date.now`). */
  now?: () => number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS audit_log (
  seq INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  keep_until INTEGER NOT NULL,
  event TEXT NOT NULL,
  message_id TEXT,
  type TEXT,
  sender TEXT NOT NULL,
  recipients TEXT NOT NULL,
  code TEXT,
  reason TEXT,
  detail TEXT,
  hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_log_at ON audit_log (at);
CREATE INDEX IF NOT EXISTS audit_log_sender ON audit_log (sender, at);
CREATE TRIGGER IF NOT EXISTS audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS audit_log_keep BEFORE DELETE ON audit_log
WHEN OLD.keep_until >= CAST(strftime('%s', 'now') AS INTEGER) * 1000
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: only entries past retention may go'); END;
`;

const MESSAGE_EVENTS = AUDIT_EVENTS.map((e) => `'${e}'`).join(", ");

type Unhashed = Omit<ChainRow, "hash" | "seq" | "keep_until">;

function rowOf(entry: AuditEntry): Unhashed {
  const e = boundAuditEntry(entry);
  return {
    at: e.at,
    event: e.event,
    message_id: e.id ?? null,
    type: e.type ?? null,
    sender: e.from,
    recipients: JSON.stringify(e.to),
    code: e.code ?? null,
    reason: e.reason ?? null,
    detail: null,
  };
}

function record(at: number, event: "retention" | "pruned", detail: object): Unhashed {
  const row = { at, event, message_id: null, type: null, sender: "", recipients: "[]" };
  return { ...row, code: null, reason: null, detail: JSON.stringify(detail) };
}

export class SqliteAuditLog implements AuditLog {
  readonly path: string;
  readonly retentionMs: number;
  readonly #db: Database.Database;
  readonly #readonly: boolean;
  readonly #onError: (error: unknown) => void;
  readonly #now: () => number;
  #buffer: Unhashed[] = [];
  #scheduled: NodeJS.Immediate | undefined;
  #closed = false;
  /** The chain's last row, in memory: every append links to it. */
  #head = { seq: 0, hash: AUDIT_CHAIN_GENESIS };
  /** Where the surviving rows begin (the last prune record, or the genesis). */
  #base: { seq: number; hash: string; retentionMs: number | undefined } = {
    seq: 0,
    hash: AUDIT_CHAIN_GENESIS,
    retentionMs: undefined,
  };
  readonly #insert: Database.Statement | undefined;

  constructor(options: SqliteAuditLogOptions) {
    this.path = options.path;
    this.retentionMs = options.retentionMs ?? AUDIT_RETENTION_DEFAULT_MS;
    assertAuditRetention(this.retentionMs);
    this.#readonly = options.readonly === true;
    this.#now = options.now ?? Date.now;
    this.#onError =
      options.onError ?? ((error) => process.stderr.write(`ocp-hub audit: ${String(error)}\n`));
    try {
      this.#db = new Database(options.path, {
        readonly: this.#readonly,
        fileMustExist: this.#readonly,
      });
    } catch (cause) {
      throw hubError("store_failed", `cannot open the audit log ${options.path}`, { cause });
    }
    this.#db.pragma("busy_timeout = 5000");
    if (this.#readonly) {
      const table = this.#db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'audit_log'")
        .get();
      if (table === undefined) throw hubError("store_failed", `${options.path} holds no audit log`);
      this.#insert = undefined;
      return;
    }
    this.#db.pragma("journal_mode = WAL");
    this.#db.pragma("synchronous = NORMAL");
    this.#db.exec(SCHEMA);
    this.#insert = this.#db.prepare(
      `INSERT INTO audit_log (${CHAIN_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#db.transaction(() => {
      this.#load();
      const unchained = migrateUnchained(this.#db);
      if (this.#inForce() !== this.retentionMs)
        this.#chain([record(this.#now(), "retention", { retentionMs: this.retentionMs })]);
      this.#chain(unchained.map(rowOf));
    })();
  }

  /** Reads the head and the last prune record of an existing chain. */
  #load(): void {
    const head = this.#db
      .prepare("SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1")
      .get() as { seq: number; hash: string } | undefined;
    if (head !== undefined) this.#head = { seq: head.seq, hash: head.hash };
    const pruned = this.#db
      .prepare("SELECT detail FROM audit_log WHERE event = 'pruned' ORDER BY seq DESC LIMIT 1")
      .get() as { detail: string | null } | undefined;
    const detail = PrunedDetailSchema.safeParse(
      pruned?.detail == null ? undefined : JSON.parse(pruned.detail),
    );
    if (detail.success)
      this.#base = {
        seq: detail.data.throughSeq,
        hash: detail.data.throughHash,
        retentionMs: detail.data.retentionMs,
      };
  }

  /** The retention in force: the last `retention` record, else the one the last prune carried. */
  #inForce(): number | undefined {
    const last = this.#db
      .prepare("SELECT detail FROM audit_log WHERE event = 'retention' ORDER BY seq DESC LIMIT 1")
      .get() as { detail: string | null } | undefined;
    return last === undefined ? this.#base.retentionMs : retentionOf(last);
  }

  /** Hashes and inserts `rows` after the head (inside the caller's transaction), then moves the head. */
  #chain(rows: readonly Unhashed[]): void {
    let head = this.#head;
    for (const unhashed of rows) {
      const seq = head.seq + 1;
      const row = { ...unhashed, seq, keep_until: unhashed.at + this.retentionMs };
      const hash = chainHash(head.hash, row);
      this.#insert!.run(...chainValues(row), hash);
      head = { seq, hash };
    }
    this.#head = head;
  }

  append(entry: AuditEntry): void {
    if (this.#insert === undefined) throw hubError("invalid_option", "the audit log is read-only");
    if (this.#closed) return;
    this.#buffer.push(rowOf(entry));
    this.#scheduled ??= setImmediate(() => this.flush());
  }

  /** Writes the buffered entries now (appends are otherwise written at the end of the turn). */
  flush(): void {
    if (this.#scheduled !== undefined) clearImmediate(this.#scheduled);
    this.#scheduled = undefined;
    if (this.#buffer.length === 0 || this.#insert === undefined) return;
    const rows = this.#buffer;
    this.#buffer = [];
    const head = this.#head;
    try {
      this.#db.transaction(() => this.#chain(rows))();
    } catch (error) {
      this.#head = head; // Nothing of the batch was written.
      this.#onError(error);
    }
  }

  async query(query: AuditQuery = {}): Promise<AuditEntry[]> {
    this.flush();
    const where: string[] = [`event IN (${MESSAGE_EVENTS})`];
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
    const sql = `SELECT at, event, message_id, type, sender, recipients, code, reason FROM audit_log WHERE ${where.join(
      " AND ",
    )} ORDER BY seq LIMIT ${limit}`;
    return this.#db
      .prepare(sql)
      .all(...params)
      .map(entryOf);
  }

  /**
   * Removes the oldest entries whose `keep_until` has passed (never one
   * after a younger-kept one: only a prefix of the chain goes), checking
   * each one's hash first; stops at a broken link (reported to `onError`,
   * left for `--verify`). Chains a `pruned` record with the hash of the last
   * entry removed. Resolves with how many went.
   */
  async prune(now: number): Promise<number> {
    if (this.#readonly || this.#closed) return 0;
    this.flush();
    // Never ahead of the wall clock the delete trigger checks against.
    const cutoff = Math.min(now, Date.now());
    try {
      return this.#db.transaction(() => this.#prune(cutoff))();
    } catch (error) {
      this.#onError(error);
      return 0;
    }
  }

  #prune(cutoff: number): number {
    let previous = { seq: this.#base.seq, hash: this.#base.hash };
    let retention = this.#base.retentionMs;
    let count = 0;
    const rows = this.#db
      .prepare(`SELECT ${CHAIN_COLUMNS} FROM audit_log WHERE seq > ? ORDER BY seq`)
      .iterate(previous.seq);
    for (const value of rows) {
      const row = ChainRowSchema.safeParse(value);
      if (!row.success || row.data.keep_until >= cutoff) break;
      const broken =
        row.data.seq !== previous.seq + 1 || chainHash(previous.hash, row.data) !== row.data.hash;
      if (broken) {
        this.#onError(
          hubError(
            "store_failed",
            `the audit log is broken at entry ${row.data.seq}: not pruning past it (run ocp-hub audit --verify)`,
          ),
        );
        break;
      }
      if (row.data.event === "retention") retention = retentionOf(row.data) ?? retention;
      previous = { seq: row.data.seq, hash: row.data.hash };
      count += 1;
    }
    if (count === 0) return 0;
    this.#db.prepare("DELETE FROM audit_log WHERE seq <= ?").run(previous.seq);
    const detail = {
      throughSeq: previous.seq,
      throughHash: previous.hash,
      count,
      retentionMs: retention,
    };
    this.#chain([record(this.#now(), "pruned", detail)]);
    this.#base = { ...previous, retentionMs: retention };
    return count;
  }

  /** Walks the whole chain (see `verifyChain`); the first broken entry, or the head. */
  verify(): ChainVerdict {
    this.flush();
    const triggers = new Set(
      (
        this.#db
          .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'audit_log'",
          )
          .all() as Array<{ name: string }>
      ).map((t) => t.name),
    );
    const prunes = pruneIndex(
      (
        this.#db.prepare("SELECT detail FROM audit_log WHERE event = 'pruned'").all() as Array<{
          detail: string | null;
        }>
      ).map((r) => r.detail),
    );
    const rows = this.#db.prepare(`SELECT ${CHAIN_COLUMNS} FROM audit_log ORDER BY seq`).iterate();
    return verifyChain(
      rows,
      prunes,
      AUDIT_TRIGGERS.filter((name) => !triggers.has(name)),
    );
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.flush();
    this.#closed = true;
    this.#db.close();
  }
}
