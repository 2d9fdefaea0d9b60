import Database from "better-sqlite3";
import type { ConsensusStore, ProposalState } from "../consensus.js";

/**
 * A {@link ConsensusStore} in an SQLite file: one row per proposal (its
 * JSON, with the counted signed votes) and an `announced` flag. An agent
 * that restarts on the same file re-arms the timers of its open proposals
 * and re-sends decisions the hub never acknowledged.
 */
export class SqliteConsensusStore implements ConsensusStore {
  readonly #db: Database.Database;
  readonly #load: Database.Statement<[string], { json: string }>;
  readonly #save: Database.Statement<[string, string, number]>;
  readonly #pending: Database.Statement<[], { json: string }>;

  constructor(path: string) {
    this.#db = new Database(path);
    this.#db.pragma("journal_mode = WAL");
    this.#db.exec(
      "CREATE TABLE IF NOT EXISTS proposals (id TEXT PRIMARY KEY, json TEXT NOT NULL, announced INTEGER NOT NULL)",
    );
    this.#load = this.#db.prepare("SELECT json FROM proposals WHERE id = ?");
    this.#save = this.#db.prepare(
      "INSERT INTO proposals (id, json, announced) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET json = excluded.json, announced = excluded.announced",
    );
    this.#pending = this.#db.prepare("SELECT json FROM proposals WHERE announced = 0 ORDER BY id");
  }

  load(proposalId: string): ProposalState | undefined {
    const row = this.#load.get(proposalId);
    return row === undefined ? undefined : (JSON.parse(row.json) as ProposalState);
  }

  save(state: ProposalState): void {
    this.#save.run(state.proposalId, JSON.stringify(state), state.announced ? 1 : 0);
  }

  pending(): ProposalState[] {
    return this.#pending.all().map((r) => JSON.parse(r.json) as ProposalState);
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }
}
