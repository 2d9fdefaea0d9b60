/**
 * The hub's commit queue with a store that takes several batches in flight
 * (`commitPipeline`, as JetStream does): batches resolving out of order are
 * still acknowledged and delivered in the order they were accepted; a failed
 * batch refuses only its own messages; `drain` waits for every batch.
 */
import { describe, expect, it } from "vitest";
import { CommitQueue, type PendingCommit } from "../../src/acks.js";
import type { AgentSession } from "../../src/session.js";
import type { CommitOutcome, HubStore, StoredMessage } from "../../src/store.js";

interface Held {
  batch: readonly StoredMessage[];
  resolve: (outcomes: CommitOutcome[]) => void;
  reject: (error: Error) => void;
}

/** A store whose commits resolve only when the test says so. */
function heldStore(pipeline: number | undefined) {
  const held: Held[] = [];
  let seq = 0;
  const store = {
    commitPipeline: pipeline,
    commit: (batch: readonly StoredMessage[]) =>
      new Promise<CommitOutcome[]>((resolve, reject) => held.push({ batch, resolve, reject })),
  } as unknown as HubStore;
  const outcomes = (batch: readonly StoredMessage[]): CommitOutcome[] =>
    batch.map((m) => ({ id: m.id, duplicate: false, seqs: [["a2a://to", ++seq] as const] }));
  return { store, held, outcomes };
}

function item(id: string): PendingCommit {
  const stored = { id, sender: "a2a://from", raw: id, expiresAt: 1, recipients: ["a2a://to"] };
  return { stored, sender: {} as AgentSession, excluded: 0 };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

function queue(store: HubStore) {
  const events: string[] = [];
  const q = new CommitQueue(store, {
    deliver: (_agent, d) => events.push(`deliver ${d.kind === "durable" ? d.raw : ""}`),
    ack: (i) => events.push(`ack ${i.stored.id}`),
    reject: (i, code) => events.push(`reject ${i.stored.id} ${code}`),
    onError: () => undefined,
  });
  return { q, events };
}

describe("CommitQueue with a pipelined store", () => {
  it("keeps up to commitPipeline batches in flight and applies outcomes in acceptance order", async () => {
    const { store, held, outcomes } = heldStore(3);
    const { q, events } = queue(store);
    for (const id of ["m1", "m2", "m3", "m4"]) {
      q.push(item(id));
      await turn(); // One batch per event-loop turn.
    }
    expect(held.map((h) => h.batch.map((m) => m.id))).toEqual([["m1"], ["m2"], ["m3"]]);
    // The later batches resolve first: nothing is applied before the first.
    held[2]!.resolve(outcomes(held[2]!.batch));
    held[1]!.resolve(outcomes(held[1]!.batch));
    await turn();
    expect(events).toEqual([]);
    held[0]!.resolve(outcomes(held[0]!.batch));
    await turn();
    expect(events).toEqual([
      "deliver m1",
      "ack m1",
      "deliver m2",
      "ack m2",
      "deliver m3",
      "ack m3",
    ]);
    // A slot freed: the fourth batch started.
    expect(held).toHaveLength(4);
    held[3]!.resolve(outcomes(held[3]!.batch));
    await q.drain();
    expect(events.slice(-1)).toEqual(["ack m4"]);
    expect(q.committed).toBe(4);
  });

  it("refuses only the messages of a failed batch, in order, and drain waits for all", async () => {
    const { store, held, outcomes } = heldStore(4);
    const { q, events } = queue(store);
    for (const id of ["m1", "m2", "m3"]) {
      q.push(item(id));
      await turn();
    }
    const drained = q.drain();
    held[2]!.resolve(outcomes(held[2]!.batch));
    held[1]!.reject(new Error("lost"));
    held[0]!.resolve(outcomes(held[0]!.batch));
    await drained;
    expect(events).toEqual([
      "deliver m1",
      "ack m1",
      "reject m2 store_failed",
      "deliver m3",
      "ack m3",
    ]);
  });

  it("commits one batch at a time when the store does not say (SQLite), or says nonsense", async () => {
    for (const pipeline of [undefined, 0, -2, 1.5, Number.NaN]) {
      const { store, held, outcomes } = heldStore(pipeline);
      const { q } = queue(store);
      q.push(item("a"));
      await turn();
      q.push(item("b"));
      await turn();
      expect(held).toHaveLength(1);
      held[0]!.resolve(outcomes(held[0]!.batch));
      await turn();
      expect(held).toHaveLength(2);
      held[1]!.resolve(outcomes(held[1]!.batch));
      await q.drain();
    }
  });
});
