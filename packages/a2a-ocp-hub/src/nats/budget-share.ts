/**
 * Budgets per agent across the hubs of a cluster (wire doc, "Budgets per
 * agent"): every {@link NATS_BUDGET_SHARE_INTERVAL_MS} each hub publishes what
 * agents spent on it since the last share (`ocp.<ws>.budgets`, core NATS, one
 * JSON message) and counts what the other hubs published into its own
 * windows. An agent that reconnects to another hub thus finds its budgets
 * spent there too, give or take what it spent in the last interval. The
 * subject is the workspace's, which only its hubs can publish on (NATS
 * permissions decide who reaches the server); a message that is not the
 * expected shape, or is larger than {@link NATS_BUDGET_SHARE_MAX_BYTES}, is
 * ignored.
 */
import { randomUUID } from "node:crypto";
import type { NatsConnection } from "@nats-io/transport-node";
import { z } from "zod";
import type { SharedBudgets } from "../bus.js";
import { NATS_BUDGET_SHARE_INTERVAL_MS, NATS_BUDGET_SHARE_MAX_BYTES } from "./limits.js";

const Count = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const ShareSchema = z.object({
  hub: z.string().min(1).max(64),
  spends: z
    .array(
      z.object({
        agentId: z.string().min(1).max(2048),
        spent: z.object({
          discovery: Count.optional(),
          lookup: Count.optional(),
          confirm: Count.optional(),
          announce: Count.optional(),
          refused: Count.optional(),
        }),
      }),
    )
    .max(100_000),
});

/** Starts sharing `budgets` on `subject`; returns the function that stops it. */
export function shareBudgets(
  nc: NatsConnection,
  subject: string,
  budgets: SharedBudgets,
  options: { now?: () => number; intervalMs?: number; onError?: (error: unknown) => void } = {},
): () => void {
  const now = options.now ?? Date.now;
  const onError = options.onError ?? (() => undefined);
  // This hub's instance: its own messages come back from the subject and are skipped.
  const self = randomUUID();
  const sub = nc.subscribe(subject, {
    callback: (error, msg) => {
      if (error !== null) return onError(error);
      if (msg.data.length > NATS_BUDGET_SHARE_MAX_BYTES) return;
      let value: unknown;
      try {
        value = JSON.parse(Buffer.from(msg.data).toString("utf8"));
      } catch {
        return;
      }
      const share = ShareSchema.safeParse(value);
      if (!share.success || share.data.hub === self) return;
      const at = now();
      for (const spend of share.data.spends) budgets.credit(spend, at);
    },
  });
  const timer = setInterval(() => {
    const spends = budgets.drain();
    if (spends.length === 0) return;
    // Cut into messages under the size bound (an agent's entry is small; ids are bounded).
    let batch: typeof spends = [];
    let bytes = 0;
    const flush = () => {
      if (batch.length === 0) return;
      try {
        nc.publish(subject, JSON.stringify({ hub: self, spends: batch }));
      } catch (error) {
        onError(error);
      }
      batch = [];
      bytes = 0;
    };
    for (const spend of spends) {
      const size = JSON.stringify(spend).length + 1;
      if (bytes + size > NATS_BUDGET_SHARE_MAX_BYTES - 128) flush();
      batch.push(spend);
      bytes += size;
    }
    flush();
  }, options.intervalMs ?? NATS_BUDGET_SHARE_INTERVAL_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    sub.unsubscribe();
  };
}
