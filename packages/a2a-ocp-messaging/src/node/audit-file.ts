/**
 * A §3 audit log in an append-only file of JSON lines (one {@link AuditEntry}
 * a line, mode 0600): for an agent listening for peers, or any process
 * without SQLite. Appends are buffered and written once per event-loop turn;
 * the only rewrite is {@link FileAuditLog.prune}, which keeps the entries
 * within retention (written to a temporary file, then renamed over the log).
 * Lines that do not parse as entries are skipped when read. Fields are
 * bounded ({@link boundAuditEntry}). Unlike the hub's SQLite log it is not
 * hash-chained: whoever can write the file can rewrite it unnoticed.
 */
import { closeSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from "node:fs";
import { z } from "zod";
import {
  AUDIT_EVENTS,
  AUDIT_QUERY_CAP,
  AUDIT_RETENTION_DEFAULT_MS,
  type AuditEntry,
  type AuditLog,
  type AuditQuery,
  assertAuditRetention,
  auditMatches,
  boundAuditEntry,
} from "../audit.js";
import { messagingError } from "../errors.js";

const EntrySchema = z.object({
  at: z.number(),
  event: z.enum(AUDIT_EVENTS),
  id: z.string().optional(),
  type: z.string().optional(),
  from: z.string(),
  to: z.array(z.string()),
  code: z.string().optional(),
  reason: z.string().optional(),
});

export interface FileAuditLogOptions {
  /** The log file, created (mode 0600) when absent, appended to otherwise. */
  path: string;
  /** How long entries are kept, ms (default 7 days). */
  retentionMs?: number;
  /** Where write failures go; stderr by default. */
  onError?: (error: unknown) => void;
}

export class FileAuditLog implements AuditLog {
  readonly path: string;
  readonly retentionMs: number;
  readonly #onError: (error: unknown) => void;
  #fd: number | undefined;
  #buffer: string[] = [];
  #scheduled: NodeJS.Immediate | undefined;

  constructor(options: FileAuditLogOptions) {
    this.path = options.path;
    this.retentionMs = options.retentionMs ?? AUDIT_RETENTION_DEFAULT_MS;
    assertAuditRetention(this.retentionMs);
    this.#onError =
      options.onError ?? ((error) => process.stderr.write(`audit log: ${String(error)}\n`));
    this.#fd = this.#open();
  }

  #open(): number {
    try {
      return openSync(this.path, "a", 0o600);
    } catch (cause) {
      throw messagingError("store_failed", `cannot open the audit log ${this.path}`, { cause });
    }
  }

  append(entry: AuditEntry): void {
    if (this.#fd === undefined) return;
    this.#buffer.push(JSON.stringify(boundAuditEntry(entry)));
    this.#scheduled ??= setImmediate(() => this.flush());
  }

  /** Writes the buffered entries now. */
  flush(): void {
    if (this.#scheduled !== undefined) clearImmediate(this.#scheduled);
    this.#scheduled = undefined;
    if (this.#buffer.length === 0 || this.#fd === undefined) return;
    const text = `${this.#buffer.join("\n")}\n`;
    this.#buffer = [];
    try {
      writeSync(this.#fd, text);
    } catch (error) {
      this.#onError(error);
    }
  }

  #read(): AuditEntry[] {
    this.flush();
    const entries: AuditEntry[] = [];
    for (const line of readFileSync(this.path, "utf8").split("\n")) {
      if (line === "") continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        continue;
      }
      const parsed = EntrySchema.safeParse(value);
      if (parsed.success) entries.push(parsed.data as AuditEntry);
    }
    return entries;
  }

  async query(query: AuditQuery = {}): Promise<AuditEntry[]> {
    const limit = Math.min(query.limit ?? AUDIT_QUERY_CAP, AUDIT_QUERY_CAP);
    return this.#read()
      .filter((entry) => auditMatches(entry, query))
      .slice(0, limit);
  }

  async prune(now: number): Promise<number> {
    if (this.#fd === undefined) return 0;
    const entries = this.#read();
    const cutoff = now - this.retentionMs;
    const kept = entries.filter((entry) => entry.at >= cutoff);
    if (kept.length === entries.length) return 0;
    const temporary = `${this.path}.${process.pid}.prune`;
    const text = kept.map((entry) => `${JSON.stringify(entry)}\n`).join("");
    writeFileSync(temporary, text, { mode: 0o600 });
    renameSync(temporary, this.path);
    closeSync(this.#fd);
    this.#fd = this.#open();
    return entries.length - kept.length;
  }

  async close(): Promise<void> {
    if (this.#fd === undefined) return;
    this.flush();
    closeSync(this.#fd);
    this.#fd = undefined;
  }
}
