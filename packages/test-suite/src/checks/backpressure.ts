/**
 * §6.1 (reliable delivery to everyone) and §12.4 (backpressure): an agent
 * that stops reading must not make the hub queue without bound, nor stop
 * it serving the others. The suite stalls one agent (its socket stops
 * reading), sends it {@link SLOW_CONSUMER_MESSAGES} large messages, and
 * checks that another agent keeps receiving meanwhile. Then the stalled
 * agent reads again: the hub passes when it closed that connection, or
 * held back (dropped, or kept for later) part of what it accepted; it
 * fails when every byte came through the same open connection — it queued
 * them all for an agent that read nothing.
 */
import type { Socket } from "node:net";
import { type Check, failed, outcome, passed } from "../context.js";
import {
  SLOW_CONSUMER_MARKER_EVERY,
  SLOW_CONSUMER_MESSAGE_BYTES,
  SLOW_CONSUMER_MESSAGES,
  SLOW_CONSUMER_SETTLE_MS,
} from "../limits.js";
import type { Peer } from "../raw.js";

const socketOf = (peer: Peer) => (peer.ws as unknown as { _socket: Socket })._socket;

/** Waits until `peer` is closed, or no frame arrived for `quietMs`. */
async function settle(peer: Peer, quietMs: number): Promise<void> {
  for (;;) {
    const seen = peer.frames.length;
    const moved = await peer
      .waitFor(
        () => (peer.closed !== undefined || peer.frames.length > seen ? true : undefined),
        "frame",
        quietMs,
      )
      .catch(() => false);
    if (!moved || peer.closed !== undefined) return;
  }
}

export const slowConsumer: Check = {
  spec: {
    name: "slow-consumer",
    sections: ["§6.1", "§12.4"],
    advisory: false,
    summary:
      "an agent that stops reading is closed or cut off (bounded queue) while the others keep receiving",
  },
  async run(context) {
    const slow = await context.join("slow");
    const reader = await context.join("reader");
    const sender = await context.join("sender");
    socketOf(slow.peer).pause();
    const blob = "x".repeat(SLOW_CONSUMER_MESSAGE_BYTES);
    let accepted = 0;
    const refusals = new Set<string>();
    for (let index = 1; index <= SLOW_CONSUMER_MESSAGES; index += 1) {
      const message = context.signed(sender.id, {
        type: "ocp.custom.blob",
        to: slow.id.id,
        payload: { index, blob },
      });
      sender.peer.send(message.text);
      const answer = await sender.peer.answerTo(message.id, context.answerTimeoutMs);
      if (answer.type === "ocp.hub.reject") refusals.add(outcome(answer));
      else accepted += 1;
      if (index % SLOW_CONSUMER_MARKER_EVERY === 0) {
        const marker = context.marker("meanwhile");
        sender.peer.send(
          context.signed(sender.id, {
            type: "ocp.custom.note",
            to: reader.id.id,
            payload: { marker },
          }).text,
        );
        const got = await reader.peer
          .receivedMarker(marker, context.answerTimeoutMs)
          .catch(() => undefined);
        if (got === undefined)
          return failed(
            `another agent stopped receiving while one stalled: no delivery within ${context.answerTimeoutMs} ms after ${index} large messages to the stalled agent`,
          );
      }
    }
    const mib = ((accepted * SLOW_CONSUMER_MESSAGE_BYTES) / 1024 / 1024).toFixed(0);
    socketOf(slow.peer).resume();
    await settle(slow.peer, SLOW_CONSUMER_SETTLE_MS);
    const delivered = slow.peer
      .delivered()
      .filter((text) => text.includes('"ocp.custom.blob"')).length;
    const meanwhile = `the other agent received every message meanwhile`;
    const refused = refusals.size > 0 ? `; refused: ${[...refusals].join(", ")}` : "";
    if (slow.peer.closed !== undefined)
      return passed(
        `the stalled agent was disconnected (close ${slow.peer.closed.code}${slow.peer.closed.reason === "" ? "" : ` ${slow.peer.closed.reason}`}) after ${delivered} of ${accepted} accepted messages (${mib} MiB)${refused}; ${meanwhile}`,
      );
    if (delivered < accepted)
      return passed(
        `the hub held back ${accepted - delivered} of ${accepted} messages (${mib} MiB) from the stalled agent's connection${refused}; ${meanwhile}`,
      );
    return failed(
      `the hub queued all ${accepted} messages (${mib} MiB) for an agent that read nothing, and delivered them on the same connection: no bound, no close${refused}`,
    );
  },
};
