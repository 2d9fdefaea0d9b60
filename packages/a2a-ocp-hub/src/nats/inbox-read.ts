/**
 * Reading an agent's inbox stream for a session catching up: up to `limit`
 * deliveries after `afterSeq`, in sequence order, unexpired at `now`.
 *
 * Only a delivery that is gone (purged, aged out: JetStream's "no message
 * found") is skipped. A read that fails (a timeout, a stream leader being
 * elected after a NATS node died) ends the page before it: the session
 * must never move past a delivery it could not read. When the first read
 * fails, the error is thrown (the session catches up again later).
 */
import {
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamManager,
  type StoredMsg,
} from "@nats-io/jetstream";
import type { PendingDelivery } from "../store.js";
import { NATS_PENDING_CONCURRENCY } from "./limits.js";
import { EXPIRES_HEADER } from "./subjects.js";

const decoder = new TextDecoder();

export async function readInbox(
  jsm: JetStreamManager,
  stream: string,
  afterSeq: number,
  limit: number,
  now: number,
): Promise<PendingDelivery[]> {
  let state: { first_seq: number; last_seq: number };
  try {
    state = (await jsm.streams.info(stream)).state;
  } catch (error) {
    // No stream: nothing was ever stored for this agent.
    if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound) {
      return [];
    }
    throw error;
  }
  const first = Math.max(afterSeq + 1, state.first_seq);
  const last = Math.min(state.last_seq, first + limit - 1);
  const out: PendingDelivery[] = [];
  for (let start = first; start <= last; start += NATS_PENDING_CONCURRENCY) {
    const seqs: number[] = [];
    for (let seq = start; seq <= Math.min(last, start + NATS_PENDING_CONCURRENCY - 1); seq++) {
      seqs.push(seq);
    }
    const page = await Promise.allSettled(
      seqs.map((seq) => jsm.streams.getMessage(stream, { seq })),
    );
    for (const read of page) {
      if (read.status === "rejected") {
        if (out.length === 0) throw read.reason;
        return out;
      }
      const delivery = toDelivery(read.value, now);
      if (delivery !== undefined) out.push(delivery);
    }
  }
  return out;
}

/** A stored message as a delivery; `undefined` when gone or expired. */
function toDelivery(stored: StoredMsg | null, now: number): PendingDelivery | undefined {
  if (stored === null) return undefined;
  const expiresAt = Number(stored.header?.get(EXPIRES_HEADER) ?? "0");
  if (expiresAt <= now) return undefined;
  const id = stored.header?.get("Nats-Msg-Id") ?? "";
  return { seq: stored.seq, id, raw: decoder.decode(stored.data) };
}
