/**
 * How {@link JetStreamStore} commits a batch: each message is published once
 * into each recipient's inbox stream (`Nats-Msg-Id` = the message id, so a
 * resend is dropped by the stream's duplicate window), and the batch resolves
 * once JetStream acked every copy (stored; the hub acknowledges to senders
 * only then).
 *
 * Batches are pipelined (issue 18): a batch is published while earlier ones
 * still wait for their acks. Batches publish strictly in call order — a
 * batch waits for the earlier ones' inbox streams to exist and their
 * publishes to be on the connection — so every stream stores messages in the
 * order the hub accepted them.
 */
import { headers } from "@nats-io/transport-node";
import type { CommitOutcome, StoredMessage } from "../store.js";
import { connectionDown, type JsAck, type JsPublisher } from "./js-publisher.js";
import {
  EXPIRES_HEADER,
  PUBLISHED_AT_HEADER,
  type Subjects,
  TRACEPARENT_HEADER,
} from "./subjects.js";

const encoder = new TextEncoder();

export class JsCommitter {
  readonly #publisher: JsPublisher;
  readonly #subjects: Subjects;
  readonly #ensureInbox: (agentId: string) => Promise<unknown>;
  /** Resolves once the previous batch's publishes are on the connection. */
  #published: Promise<void> = Promise.resolve();

  constructor(
    publisher: JsPublisher,
    subjects: Subjects,
    ensureInbox: (agentId: string) => Promise<unknown>,
  ) {
    this.#publisher = publisher;
    this.#subjects = subjects;
    this.#ensureInbox = ensureInbox;
  }

  commit(batch: readonly StoredMessage[]): Promise<CommitOutcome[]> {
    // No connection: refused at once (the senders resend), not after the request timeout.
    if (!this.#publisher.connected) return Promise.reject(connectionDown());
    const turn = this.#published.then(() => this.#publish(batch));
    // The next batch publishes after this one's publishes went out, failed or not.
    this.#published = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn.then((acks) => Promise.all(acks)).then((settled) => outcomes(batch, settled));
  }

  /** Makes sure the inboxes exist, then publishes every copy; returns the acks to wait for. */
  async #publish(batch: readonly StoredMessage[]): Promise<Array<Promise<JsAck[]>>> {
    const recipients = new Set<string>();
    for (const message of batch) for (const agent of message.recipients) recipients.add(agent);
    await Promise.all([...recipients].map((agent) => this.#ensureInbox(agent)));
    // One clock read per batch; each message's bytes are encoded once, shared by its copies
    // (and kept by the publisher for a retry), not once per recipient.
    const publishedAt = String(Date.now());
    return batch.map((message) => {
      const expires = String(message.expiresAt);
      const data = message.recipients.length > 1 ? encoder.encode(message.raw) : message.raw;
      return Promise.all(
        message.recipients.map((agent) => {
          // A fresh header set: `append` needs no search for an earlier value.
          const h = headers();
          h.append("Nats-Msg-Id", message.id);
          h.append(EXPIRES_HEADER, expires);
          h.append(PUBLISHED_AT_HEADER, publishedAt);
          if (message.traceparent !== undefined) h.append(TRACEPARENT_HEADER, message.traceparent);
          return this.#publisher.publish(this.#subjects.inbox(agent), data, h);
        }),
      );
    });
  }
}

/** A message is a duplicate when every recipient's stream reports it as one. */
function outcomes(batch: readonly StoredMessage[], settled: JsAck[][]): CommitOutcome[] {
  return batch.map((message, i) => {
    const acks = settled[i] as JsAck[];
    const duplicate = acks.length > 0 && acks.every((ack) => ack.duplicate);
    return {
      id: message.id,
      duplicate,
      seqs: duplicate
        ? []
        : message.recipients.map((agent, j) => [agent, (acks[j] as JsAck).seq] as const),
    };
  });
}
