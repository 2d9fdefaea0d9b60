/**
 * The hash chain of the hub's §3 audit log. Every row stores its chain
 * position (`seq`, 1, 2, 3, … with no gap), the time it may be pruned
 * (`keep_until`: its time plus the retention in force when it was written)
 * and `hash` = SHA-256 of the previous row's hash and the row's canonical
 * content ({@link AUDIT_CHAIN_GENESIS} before the first). Besides the
 * message events two records are chained like any entry: `retention` (the
 * log's retention changed; it applies to entries written after it) and
 * `pruned` (entries through `throughSeq` were removed at retention; it
 * carries the hash of the last one, so the first surviving entry still
 * links to something the chain vouches for). `verifyChain` walks the
 * rows and names the first entry that breaks the chain.
 */
import { createHash } from "node:crypto";
import { AUDIT_EVENTS } from "@ocp/a2a-ocp-messaging/internal";
import { z } from "zod";

/** The hash the first entry of a log links to. */
export const AUDIT_CHAIN_GENESIS = "0".repeat(64);

/** The chain's own records, beside the message events. */
export const AUDIT_CHAIN_RECORDS = ["retention", "pruned"] as const;

/** The two triggers that keep the table append-only; `--verify` reports a missing one. */
export const AUDIT_TRIGGERS = ["audit_log_no_update", "audit_log_keep"] as const;

export const RetentionDetailSchema = z.object({ retentionMs: z.number().int().positive() });
export const PrunedDetailSchema = z.object({
  throughSeq: z.number().int().nonnegative(),
  throughHash: z.string().regex(/^[0-9a-f]{64}$/),
  count: z.number().int().positive(),
  /** The retention in force for the entry after `throughSeq`. */
  retentionMs: z.number().int().positive().optional(),
});

export const ChainRowSchema = z.object({
  seq: z.number().int().positive(),
  at: z.number().int(),
  keep_until: z.number().int(),
  event: z.enum([...AUDIT_EVENTS, ...AUDIT_CHAIN_RECORDS]),
  message_id: z.string().nullable(),
  type: z.string().nullable(),
  sender: z.string(),
  recipients: z.string(),
  code: z.string().nullable(),
  reason: z.string().nullable(),
  detail: z.string().nullable(),
  hash: z.string(),
});
export type ChainRow = z.infer<typeof ChainRowSchema>;

/** The columns of a row, in the order they are hashed and inserted. */
export const CHAIN_COLUMNS =
  "seq, at, keep_until, event, message_id, type, sender, recipients, code, reason, detail, hash";

/** The values of a row's columns but `hash`, in {@link CHAIN_COLUMNS} order: what is hashed and inserted. */
export function chainValues(row: Omit<ChainRow, "hash">): Array<string | number | null> {
  return [
    row.seq,
    row.at,
    row.keep_until,
    row.event,
    row.message_id,
    row.type,
    row.sender,
    row.recipients,
    row.code,
    row.reason,
    row.detail,
  ];
}

/** The hash of `row` chained after `previous`: SHA-256 over both, hex. */
export function chainHash(previous: string, row: Omit<ChainRow, "hash">): string {
  const content = JSON.stringify(chainValues(row));
  return createHash("sha256").update(previous).update("\n").update(content).digest("hex");
}

/** What `--verify` found. */
export type ChainVerdict =
  | {
      ok: true;
      /** Entries (rows) in the log. */
      entries: number;
      /** The first surviving entry's `seq` (after pruning). */
      firstSeq: number;
      /** The last entry: record it elsewhere to detect a later truncation. */
      head: { seq: number; hash: string };
    }
  | {
      ok: false;
      /** The first entry that breaks the chain (`seq`); 0 when the table itself is at fault. */
      seq: number;
      reason: string;
    };

/** Where the surviving rows begin: the last prune record per `throughSeq`. */
export type PruneIndex = ReadonlyMap<number, z.infer<typeof PrunedDetailSchema>>;

/** The prune records of a log, by the last `seq` each removed. */
export function pruneIndex(
  details: Iterable<string | null>,
): Map<number, z.infer<typeof PrunedDetailSchema>> {
  const index = new Map<number, z.infer<typeof PrunedDetailSchema>>();
  for (const detail of details) {
    const parsed = PrunedDetailSchema.safeParse(parseJson(detail));
    if (parsed.success) index.set(parsed.data.throughSeq, parsed.data);
  }
  return index;
}

function parseJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The retention a `retention` record sets, or `undefined` when it is malformed. */
export function retentionOf(row: Pick<ChainRow, "detail">): number | undefined {
  const parsed = RetentionDetailSchema.safeParse(parseJson(row.detail));
  return parsed.success ? parsed.data.retentionMs : undefined;
}

/**
 * Walks `rows` (every row of the log, by `seq`) and checks each link: no
 * gap in `seq`, each hash over the previous one, each `keep_until` the
 * retention in force, and a first row that follows the genesis or a prune
 * record of the chain. Missing triggers fail it too (after the first broken
 * entry, when there is one).
 */
export function verifyChain(
  rows: Iterable<unknown>,
  prunes: PruneIndex,
  missingTriggers: readonly string[],
): ChainVerdict {
  const verdict = walk(rows, prunes);
  if (missingTriggers.length === 0) return verdict;
  const opened = `trigger ${missingTriggers.join(", ")} is missing: the table was opened to edits and deletes`;
  return verdict.ok
    ? { ok: false, seq: 0, reason: opened }
    : { ...verdict, reason: `${verdict.reason}; ${opened}` };
}

function walk(rows: Iterable<unknown>, prunes: PruneIndex): ChainVerdict {
  let previous: { seq: number; hash: string } | undefined;
  let retention: number | undefined;
  let entries = 0;
  let firstSeq = 0;
  for (const value of rows) {
    const parsed = ChainRowSchema.safeParse(value);
    const seq =
      typeof (value as { seq?: unknown }).seq === "number" ? (value as { seq: number }).seq : 0;
    if (!parsed.success) return { ok: false, seq, reason: `entry ${seq} is not a well-formed row` };
    const row = parsed.data;
    if (previous === undefined) {
      firstSeq = row.seq;
      if (row.seq === 1) previous = { seq: 0, hash: AUDIT_CHAIN_GENESIS };
      else {
        const prune = prunes.get(row.seq - 1);
        if (prune === undefined)
          return {
            ok: false,
            seq: row.seq,
            reason: `entries before ${row.seq} are gone and no prune record accounts for them (deleted)`,
          };
        previous = { seq: prune.throughSeq, hash: prune.throughHash };
        retention = prune.retentionMs;
      }
    }
    if (row.seq !== previous.seq + 1)
      return {
        ok: false,
        seq: row.seq,
        reason:
          row.seq > previous.seq + 1
            ? `entries ${previous.seq + 1}–${row.seq - 1} are missing (deleted)`
            : `entry ${row.seq} is out of order after ${previous.seq}`,
      };
    if (chainHash(previous.hash, row) !== row.hash)
      return {
        ok: false,
        seq: row.seq,
        reason: `entry ${row.seq} does not match its hash (edited, moved, or the entry before it was)`,
      };
    if (row.event === "retention") retention = retentionOf(row) ?? retention;
    if (retention !== undefined && row.keep_until !== row.at + retention)
      return {
        ok: false,
        seq: row.seq,
        reason: `entry ${row.seq} is kept until ${row.keep_until}, not its time plus the retention in force (${retention} ms)`,
      };
    previous = { seq: row.seq, hash: row.hash };
    entries += 1;
  }
  if (previous === undefined)
    return {
      ok: false,
      seq: 0,
      reason:
        "the log is empty: a log always keeps its retention or a prune record, so its rows were deleted",
    };
  return {
    ok: true,
    entries,
    firstSeq,
    head: previous,
  };
}
