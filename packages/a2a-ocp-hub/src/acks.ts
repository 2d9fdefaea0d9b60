/**
 * Group commit and acknowledgement of durable messages. Accepted durable
 * messages queue up during one event-loop turn and are committed together,
 * in arrival order, in one store transaction; only after the commit resolves
 * is each sender sent `ocp.hub.ack` (or, for an id already committed,
 * `ocp.hub.reject replay_detected`) and each recipient's delivery handed to
 * the bus with its sequence number.
 */
import type { BusDelivery } from "./bus.js";
import { HUB_COMMIT_BATCH_MAX } from "./limits.js";
import type { AgentSession } from "./session.js";
import type { CommitOutcome, HubStore, StoredMessage } from "./store.js";

export interface PendingCommit {
  stored: StoredMessage;
  sender: AgentSession;
  /** Recipients left out by visibility, reported in the ack. */
  excluded: number;
}

export interface CommitQueueHooks {
  deliver: (agentId: string, delivery: BusDelivery) => void;
  ack: (item: PendingCommit, outcome: CommitOutcome) => void;
  reject: (item: PendingCommit, code: "replay_detected" | "store_failed", message: string) => void;
  onError: (error: unknown) => void;
}

export class CommitQueue {
  /** Durable messages committed so far. */
  committed = 0;
  readonly #store: HubStore;
  readonly #hooks: CommitQueueHooks;
  #queue: PendingCommit[] = [];
  #flushing: Promise<void> | undefined;
  #scheduled = false;

  constructor(store: HubStore, hooks: CommitQueueHooks) {
    this.#store = store;
    this.#hooks = hooks;
  }

  /** Queues a message; it is committed at the end of this event-loop turn. */
  push(item: PendingCommit): void {
    this.#queue.push(item);
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.flush().catch(this.#hooks.onError);
    });
  }

  /** Commits everything queued; resolves when the queue is empty. */
  async drain(): Promise<void> {
    while (this.#flushing !== undefined || this.#queue.length > 0) await this.flush();
  }

  flush(): Promise<void> {
    if (this.#flushing !== undefined) return this.#flushing;
    this.#flushing = this.#run().finally(() => {
      this.#flushing = undefined;
    });
    return this.#flushing;
  }

  async #run(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, HUB_COMMIT_BATCH_MAX);
      let outcomes: CommitOutcome[];
      try {
        outcomes = await this.#store.commit(batch.map((item) => item.stored));
      } catch (error) {
        this.#hooks.onError(error);
        for (const item of batch) {
          this.#hooks.reject(item, "store_failed", "the message could not be committed");
        }
        continue;
      }
      for (let i = 0; i < batch.length; i++) {
        const item = batch[i]!;
        const outcome = outcomes[i]!;
        if (outcome.duplicate) {
          this.#hooks.reject(
            item,
            "replay_detected",
            `message ${outcome.id} was already committed`,
          );
          continue;
        }
        this.committed += 1;
        for (const [agent, seq] of outcome.seqs) {
          this.#hooks.deliver(agent, { kind: "durable", seq, raw: item.stored.raw });
        }
        this.#hooks.ack(item, outcome);
      }
    }
  }
}
