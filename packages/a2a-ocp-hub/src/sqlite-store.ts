/**
 * {@link HubStore} on an embedded SQLite file (better-sqlite3 12), in WAL mode.
 *
 * Durability: `synchronous = FULL` by default. In WAL mode `NORMAL` survives
 * a crash of the process (SIGKILL included: committed pages are in the WAL,
 * in the OS cache) but may lose the last transactions on power loss or an OS
 * crash. The hub acknowledges a message to its sender as "committed", so the
 * default pays one fsync per commit; commits are grouped per event-loop turn
 * (many messages per transaction), which keeps that cost per batch, not per
 * message. `NORMAL` is an option for deployments that accept that window.
 */

import type { AgentProfile, EventSubscription } from "@ocp/a2a-ocp-messaging";
import { AgentProfileSchema } from "@ocp/a2a-ocp-messaging/schemas";
import Database from "better-sqlite3";
import { z } from "zod";
import { hubError } from "./errors.js";
import type {
  CommitOutcome,
  ExpiredDelivery,
  HubStore,
  PendingDelivery,
  StoredMessage,
} from "./store.js";

export interface SqliteStoreOptions {
  /** The database file (created if absent); `:memory:` for a store that does not survive. */
  path: string;
  /** `FULL` (default) or `NORMAL`; see the module comment. */
  synchronous?: "FULL" | "NORMAL";
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS messages (
  id TEXT PRIMARY KEY,
  sender TEXT NOT NULL,
  raw TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_expiry ON messages (expires_at);
CREATE TABLE IF NOT EXISTS deliveries (
  agent TEXT NOT NULL,
  seq INTEGER NOT NULL,
  message_id TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (agent, seq)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS deliveries_expiry ON deliveries (expires_at);
CREATE TABLE IF NOT EXISTS cursors (
  agent TEXT PRIMARY KEY,
  last_seq INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS agents (
  id TEXT PRIMARY KEY,
  profile TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS subscriptions (
  agent TEXT NOT NULL,
  subscription_id TEXT NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (agent, subscription_id)
) WITHOUT ROWID;
`;

/** A subscription as stored (the file is input: parsed, never cast). */
const StoredSubscriptionSchema = z.object({
  agentId: z.string().min(1),
  subscriptionId: z.string().min(1),
  eventTypes: z.array(z.string().min(1)),
  filters: z.record(z.string(), z.unknown()).optional(),
});

interface Row {
  seq: number;
  id: string;
  raw: string;
}

export class SqliteStore implements HubStore {
  readonly path: string;
  readonly #db: Database.Database;
  /** Last sequence number assigned per agent (loaded from `cursors` on first use). */
  readonly #lastSeq = new Map<string, number>();
  readonly #commit: (batch: readonly StoredMessage[]) => CommitOutcome[];
  readonly #statements: {
    insertMessage: Database.Statement;
    insertDelivery: Database.Statement;
    readCursor: Database.Statement;
    writeCursor: Database.Statement;
    pending: Database.Statement;
    confirm: Database.Statement;
    saveAgent: Database.Statement;
    agent: Database.Statement;
    agents: Database.Statement;
    saveSubscription: Database.Statement;
    removeSubscription: Database.Statement;
    subscriptions: Database.Statement;
    sweepDeliveries: Database.Statement;
    sweepMessages: Database.Statement;
  };

  constructor(options: SqliteStoreOptions) {
    this.path = options.path;
    const db = new Database(options.path);
    this.#db = db;
    db.pragma("journal_mode = WAL");
    db.pragma(`synchronous = ${options.synchronous === "NORMAL" ? "NORMAL" : "FULL"}`);
    db.pragma("busy_timeout = 5000");
    db.exec(SCHEMA);
    this.#statements = {
      insertMessage: db.prepare(
        "INSERT OR IGNORE INTO messages (id, sender, raw, expires_at) VALUES (?, ?, ?, ?)",
      ),
      insertDelivery: db.prepare(
        "INSERT INTO deliveries (agent, seq, message_id, expires_at) VALUES (?, ?, ?, ?)",
      ),
      readCursor: db.prepare("SELECT last_seq FROM cursors WHERE agent = ?").pluck(),
      writeCursor: db.prepare(
        "INSERT INTO cursors (agent, last_seq) VALUES (?, ?) ON CONFLICT (agent) DO UPDATE SET last_seq = excluded.last_seq",
      ),
      pending: db.prepare(
        `SELECT d.seq AS seq, d.message_id AS id, m.raw AS raw
           FROM deliveries d JOIN messages m ON m.id = d.message_id
          WHERE d.agent = ? AND d.seq > ? AND d.expires_at > ?
          ORDER BY d.seq LIMIT ?`,
      ),
      confirm: db.prepare("DELETE FROM deliveries WHERE agent = ? AND seq <= ?"),
      saveAgent: db.prepare(
        "INSERT INTO agents (id, profile) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET profile = excluded.profile",
      ),
      agent: db.prepare("SELECT profile FROM agents WHERE id = ?").pluck(),
      agents: db.prepare("SELECT profile FROM agents ORDER BY id").pluck(),
      saveSubscription: db.prepare(
        "INSERT INTO subscriptions (agent, subscription_id, body) VALUES (?, ?, ?) ON CONFLICT (agent, subscription_id) DO UPDATE SET body = excluded.body",
      ),
      removeSubscription: db.prepare(
        "DELETE FROM subscriptions WHERE agent = ? AND subscription_id = ?",
      ),
      subscriptions: db.prepare("SELECT body FROM subscriptions").pluck(),
      sweepDeliveries: db.prepare("DELETE FROM deliveries WHERE expires_at <= ?"),
      sweepMessages: db.prepare("DELETE FROM messages WHERE expires_at <= ?"),
    };
    this.#commit = db.transaction((batch: readonly StoredMessage[]) => this.#commitBatch(batch));
  }

  #commitBatch(batch: readonly StoredMessage[]): CommitOutcome[] {
    const s = this.#statements;
    const touched = new Map<string, number>();
    const outcomes: CommitOutcome[] = [];
    for (const message of batch) {
      const inserted = s.insertMessage.run(
        message.id,
        message.sender,
        message.raw,
        message.expiresAt,
      );
      if (inserted.changes === 0) {
        outcomes.push({ id: message.id, duplicate: true, seqs: [] });
        continue;
      }
      const seqs: Array<readonly [string, number]> = [];
      for (const agent of message.recipients) {
        const seq = (touched.get(agent) ?? this.#cursor(agent)) + 1;
        touched.set(agent, seq);
        s.insertDelivery.run(agent, seq, message.id, message.expiresAt);
        seqs.push([agent, seq]);
      }
      outcomes.push({ id: message.id, duplicate: false, seqs });
    }
    for (const [agent, seq] of touched) s.writeCursor.run(agent, seq);
    return outcomes;
  }

  #cursor(agent: string): number {
    let seq = this.#lastSeq.get(agent);
    if (seq === undefined) {
      seq = (this.#statements.readCursor.get(agent) as number | undefined) ?? 0;
      this.#lastSeq.set(agent, seq);
    }
    return seq;
  }

  async commit(batch: readonly StoredMessage[]): Promise<CommitOutcome[]> {
    const outcomes = this.#commit(batch);
    // Only after the transaction committed do the cached cursors move on.
    for (const outcome of outcomes) {
      for (const [agent, seq] of outcome.seqs) this.#lastSeq.set(agent, seq);
    }
    return outcomes;
  }

  async pending(
    agentId: string,
    afterSeq: number,
    limit: number,
    now: number,
  ): Promise<PendingDelivery[]> {
    return (this.#statements.pending.all(agentId, afterSeq, now, limit) as Row[]).map((row) => ({
      seq: row.seq,
      id: row.id,
      raw: row.raw,
    }));
  }

  async confirm(agentId: string, seq: number): Promise<void> {
    this.#statements.confirm.run(agentId, seq);
  }

  /**
   * Pins an agent's first key: a profile of the same id with another key is
   * refused (`invalid_profile`); of the same key, the latest (`issuedAt`) is kept.
   */
  async saveAgent(profile: AgentProfile): Promise<void> {
    const existing = await this.agent(profile.id);
    if (existing !== undefined && existing.publicKey !== profile.publicKey) {
      throw hubError("invalid_profile", `${profile.id} is registered with another key`);
    }
    if (existing !== undefined && existing.issuedAt >= profile.issuedAt) return;
    this.#statements.saveAgent.run(profile.id, JSON.stringify(profile));
  }

  /** One agent's stored profile. */
  async agent(agentId: string): Promise<AgentProfile | undefined> {
    const text = this.#statements.agent.get(agentId) as string | undefined;
    if (text === undefined) return undefined;
    const parsed = AgentProfileSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  }

  async agents(): Promise<AgentProfile[]> {
    const out: AgentProfile[] = [];
    for (const text of this.#statements.agents.all() as string[]) {
      const parsed = AgentProfileSchema.safeParse(JSON.parse(text));
      if (parsed.success) out.push(parsed.data);
    }
    return out;
  }

  async saveSubscription(subscription: EventSubscription): Promise<void> {
    this.#statements.saveSubscription.run(
      subscription.agentId,
      subscription.subscriptionId,
      JSON.stringify(subscription),
    );
  }

  async removeSubscription(agentId: string, subscriptionId: string): Promise<void> {
    this.#statements.removeSubscription.run(agentId, subscriptionId);
  }

  async subscriptions(): Promise<EventSubscription[]> {
    const out: EventSubscription[] = [];
    for (const text of this.#statements.subscriptions.all() as string[]) {
      const parsed = StoredSubscriptionSchema.safeParse(JSON.parse(text));
      if (parsed.success) out.push(parsed.data);
    }
    return out;
  }

  async sweep(now: number, onExpired?: (expired: ExpiredDelivery[]) => void): Promise<number> {
    if (onExpired === undefined) {
      const gone = this.#statements.sweepDeliveries.run(now).changes;
      this.#statements.sweepMessages.run(now);
      return gone;
    }
    const expired = this.#sweepReporting(now);
    if (expired.length > 0) onExpired(expired);
    return expired.length;
  }

  /** The sweep, reading first what it deletes (one transaction). */
  #sweepReporting = (now: number): ExpiredDelivery[] =>
    this.#db.transaction(() => {
      const rows = this.#db
        .prepare(
          `SELECT d.agent AS agentId, d.message_id AS id, m.sender AS sender,
                  json_extract(m.raw, '$.type') AS type
             FROM deliveries d LEFT JOIN messages m ON m.id = d.message_id
            WHERE d.expires_at <= ?`,
        )
        .all(now) as Array<{ agentId: string; id: string; sender: string | null; type: unknown }>;
      this.#statements.sweepDeliveries.run(now);
      this.#statements.sweepMessages.run(now);
      return rows.map((r) => ({
        agentId: r.agentId,
        id: r.id,
        sender: r.sender ?? "",
        ...(typeof r.type === "string" ? { type: r.type } : {}),
      }));
    })();

  async close(): Promise<void> {
    if (this.#db.open) this.#db.close();
  }
}
