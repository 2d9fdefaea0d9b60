import Database from "better-sqlite3";
import type { ChangeRecord, ItemKind, KnowledgeGraph } from "../graph.js";
import type { VersionedEdge, VersionedItem, VersionedNode } from "../merge.js";

/**
 * A {@link KnowledgeGraph} in an SQLite file (better-sqlite3): one `items`
 * table (kind, id, JSON, change sequence, tombstone flag) with an index on
 * the sequence for `changesSince`, and a `meta` table for the change
 * sequence, the edit counter and the sync watermarks. WAL journal; every
 * write of a merge runs in one transaction, so a crash never leaves half a
 * page applied. Survives a restart: reopen the same file.
 */
export class SqliteGraph implements KnowledgeGraph {
  readonly #db: Database.Database;
  readonly #get: Database.Statement<[string, string], { json: string }>;
  readonly #put: Database.Statement<[string, string, string, number, number]>;
  readonly #since: Database.Statement<
    [number, number],
    { kind: string; json: string; seq: number }
  >;
  readonly #live: Database.Statement<[string], { json: string }>;
  readonly #getMeta: Database.Statement<[string], { value: number }>;
  readonly #setMeta: Database.Statement<[string, number]>;
  #seq: number;
  #depth = 0;

  constructor(
    readonly replicaId: string,
    path: string,
  ) {
    this.#db = new Database(path);
    this.#db.pragma("journal_mode = WAL");
    this.#db.pragma("synchronous = NORMAL");
    this.#db.exec(`
      CREATE TABLE IF NOT EXISTS items (
        kind TEXT NOT NULL, id TEXT NOT NULL, json TEXT NOT NULL,
        seq INTEGER NOT NULL, deleted INTEGER NOT NULL, PRIMARY KEY (kind, id)
      );
      CREATE INDEX IF NOT EXISTS items_seq ON items (seq);
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
    `);
    this.#get = this.#db.prepare("SELECT json FROM items WHERE kind = ? AND id = ?");
    this.#put = this.#db.prepare(
      "INSERT INTO items (kind, id, json, seq, deleted) VALUES (?, ?, ?, ?, ?) ON CONFLICT (kind, id) DO UPDATE SET json = excluded.json, seq = excluded.seq, deleted = excluded.deleted",
    );
    this.#since = this.#db.prepare(
      "SELECT kind, json, seq FROM items WHERE seq > ? ORDER BY seq LIMIT ?",
    );
    this.#live = this.#db.prepare(
      "SELECT json FROM items WHERE kind = ? AND deleted = 0 ORDER BY id",
    );
    this.#getMeta = this.#db.prepare("SELECT value FROM meta WHERE key = ?");
    this.#setMeta = this.#db.prepare(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    );
    this.#seq = this.#meta("seq");
  }

  #meta(key: string): number {
    return this.#getMeta.get(key)?.value ?? 0;
  }

  getNode(id: string): VersionedNode | undefined {
    const row = this.#get.get("node", id);
    return row === undefined ? undefined : (JSON.parse(row.json) as VersionedNode);
  }

  getEdge(id: string): VersionedEdge | undefined {
    const row = this.#get.get("edge", id);
    return row === undefined ? undefined : (JSON.parse(row.json) as VersionedEdge);
  }

  write(kind: ItemKind, item: VersionedItem): void {
    this.transaction(() => {
      this.#seq += 1;
      this.#put.run(
        kind,
        item.id,
        JSON.stringify(item),
        this.#seq,
        item.ocpDeleted === true ? 1 : 0,
      );
      this.#setMeta.run("seq", this.#seq);
    });
  }

  liveNodes(): VersionedNode[] {
    return this.#live.all("node").map((r) => JSON.parse(r.json) as VersionedNode);
  }

  liveEdges(): VersionedEdge[] {
    return this.#live.all("edge").map((r) => JSON.parse(r.json) as VersionedEdge);
  }

  *changesSince(seq: number): Iterable<ChangeRecord> {
    // Read in bounded slices so the iterator never holds the statement across writes.
    let from = seq;
    for (;;) {
      const rows = this.#since.all(from, 1000);
      for (const row of rows) {
        yield {
          kind: row.kind as ItemKind,
          seq: row.seq,
          item: JSON.parse(row.json) as VersionedItem,
        };
      }
      if (rows.length < 1000) return;
      from = rows[rows.length - 1]?.seq ?? from;
    }
  }

  changeSeq(): number {
    return this.#seq;
  }

  nextEditCounter(): number {
    const next = this.#meta("edit") + 1;
    this.#setMeta.run("edit", next);
    return next;
  }

  watermark(peer: string): number {
    return this.#meta(`wm:${peer}`);
  }

  setWatermark(peer: string, seq: number): void {
    this.#setMeta.run(`wm:${peer}`, seq);
  }

  transaction<R>(fn: () => R): R {
    if (this.#depth > 0) return fn();
    const before = this.#seq;
    this.#depth += 1;
    try {
      return this.#db.transaction(fn)();
    } catch (error) {
      this.#seq = before;
      throw error;
    } finally {
      this.#depth -= 1;
    }
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }
}
