/**
 * Group commit and acknowledgement of durable messages. Accepted durable
 * messages queue up during one event-loop turn and are committed together,
 * in arrival order, in one store transaction; only after the commit resolves
 * is each sender sent `ocp.hub.ack` (or, for an id already committed,
 * `ocp.hub.reject replay_detected`) and each recipient's delivery handed to
 * the bus with its sequence number. A store that keeps order across
 * concurrent commits (JetStream) may take several batches in flight
 * ({@link HubStore.commitPipeline}); their outcomes are still applied in the
 * order the batches were accepted.
 */
import type { BusDelivery } from "./bus.js";
import { HUB_COMMIT_BATCH_MAX } from "./limits.js";
import type { AgentSession } from "./session.js";
import type { CommitOutcome, HubStore, StoredMessage } from "./store.js";
import type { DeliveryTrace } from "./telemetry.js";

export interface PendingCommit {
  stored: StoredMessage;
  sender: AgentSession;
  /** Recipients left out by visibility, reported in the ack. */
  excluded: number;
  /**
   * Called once with the outcome, before anything else is done with it:
   * `true` when committed (before its deliveries and ack), `false` when
   * refused (`replay_detected`, `store_failed`). What the message changes
   * beyond the store (a subscription, a recipient's open query) is applied
   * or given back here, so a refused message leaves nothing behind.
   */
  settled?: (committed: boolean) => void;
  /** What its deliveries carry for the hop histograms and the trace (telemetry.ts). */
  trace?: DeliveryTrace;
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
  /** Commits in flight at once ({@link HubStore.commitPipeline}, 1 when absent). */
  readonly #pipeline: number;
  #queue: PendingCommit[] = [];
  /** Commits started and not yet applied. */
  #active = 0;
  /** Resolves once every started commit was applied (acks sent, deliveries handed over), in order. */
  #applied: Promise<void> = Promise.resolve();
  #scheduled = false;

  constructor(store: HubStore, hooks: CommitQueueHooks) {
    this.#store = store;
    this.#hooks = hooks;
    const pipeline = store.commitPipeline ?? 1;
    this.#pipeline = Number.isSafeInteger(pipeline) && pipeline >= 1 ? pipeline : 1;
  }

  /** Queues a message; it is committed at the end of this event-loop turn. */
  push(item: PendingCommit): void {
    this.#queue.push(item);
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#pump();
    });
  }

  /** Commits everything queued; resolves when the queue is empty and every commit applied. */
  async drain(): Promise<void> {
    while (this.#active > 0 || this.#queue.length > 0) {
      this.#pump();
      await this.#applied;
    }
  }

  /** Starts a commit per free pipeline slot; outcomes are applied in the order commits started. */
  #pump(): void {
    while (this.#queue.length > 0 && this.#active < this.#pipeline) {
      const batch = this.#queue.splice(0, HUB_COMMIT_BATCH_MAX);
      this.#active += 1;
      // Settled at once (no rejection left unhandled while earlier commits are applied).
      let committing: Promise<CommitOutcome[] | { failed: unknown }>;
      try {
        committing = this.#store
          .commit(batch.map((item) => item.stored))
          .catch((error: unknown) => ({ failed: error }));
      } catch (error) {
        committing = Promise.resolve({ failed: error });
      }
      this.#applied = this.#applied
        .then(() => committing)
        .then((outcomes) => {
          if (Array.isArray(outcomes)) return this.#apply(batch, outcomes);
          this.#hooks.onError(outcomes.failed);
          for (const item of batch) {
            item.settled?.(false);
            this.#hooks.reject(item, "store_failed", storeFailure(outcomes.failed));
          }
        })
        .catch(this.#hooks.onError)
        .finally(() => {
          this.#active -= 1;
          this.#pump();
        });
    }
  }

  #apply(batch: readonly PendingCommit[], outcomes: CommitOutcome[]): void {
    for (let i = 0; i < batch.length; i++) {
      const item = batch[i]!;
      const outcome = outcomes[i]!;
      if (outcome.duplicate) {
        item.settled?.(false);
        this.#hooks.reject(item, "replay_detected", `message ${outcome.id} was already committed`);
        continue;
      }
      this.committed += 1;
      item.settled?.(true);
      const { raw } = item.stored;
      const { trace } = item;
      for (const [agent, seq] of outcome.seqs) {
        this.#hooks.deliver(
          agent,
          trace === undefined
            ? { kind: "durable", seq, raw }
            : { kind: "durable", seq, raw, trace },
        );
      }
      this.#hooks.ack(item, outcome);
    }
  }
}

/** Why a commit failed, as the sender reads it: the store's own `store_failed` reason when it gave one. */
function storeFailure(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "store_failed" && error instanceof Error
    ? `the message could not be committed: ${error.message}`
    : "the message could not be committed";
}
