/**
 * Rows of the audit log as entries, and the move of a log written before
 * the chain (the unchained `audit` table and its `audit_meta`) into the
 * chained `audit_log`: its entries are read oldest first, the old table is
 * dropped, and the entries are chained in the same transaction.
 */
import type { AuditEntry } from "@ocp/a2a-ocp-messaging";
import { AUDIT_EVENTS } from "@ocp/a2a-ocp-messaging/internal";
import type Database from "better-sqlite3";
import { z } from "zod";
import { ChainRowSchema } from "./audit-chain.js";

/** An entry's columns, in either table: the chained row's, with a legacy row's looser `at` and its events only. */
const RowSchema = ChainRowSchema.pick({
  message_id: true,
  type: true,
  sender: true,
  recipients: true,
  code: true,
  reason: true,
}).extend({ at: z.number(), event: z.enum(AUDIT_EVENTS) });

/** A row (of either table) as an {@link AuditEntry}. */
export function entryOf(row: unknown): AuditEntry {
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

/** Takes the entries out of an unchained `audit` table (dropping it); none when there is none. */
export function migrateUnchained(db: Database.Database): AuditEntry[] {
  const table = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'audit'")
    .get();
  if (table === undefined) return [];
  const entries = db
    .prepare(
      "SELECT at, event, message_id, type, sender, recipients, code, reason FROM audit ORDER BY at, rowid",
    )
    .all()
    .flatMap((row) => {
      const parsed = RowSchema.safeParse(row);
      return parsed.success ? [entryOf(parsed.data)] : [];
    });
  db.exec("DROP TABLE audit; DROP TABLE IF EXISTS audit_meta;");
  return entries;
}
