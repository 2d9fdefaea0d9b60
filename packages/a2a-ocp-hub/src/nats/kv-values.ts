/** The values of the workspace's KV buckets, read back: profiles (self-signature checked) and subscriptions. */
import type { EventSubscription } from "@ocp/a2a-ocp-messaging";
import { type AgentProfile, verifyAgentProfile } from "@ocp/a2a-ocp-messaging";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { z } from "zod";

const SubscriptionSchema = z.object({
  agentId: z.string().min(1),
  subscriptionId: z.string().min(1),
  eventTypes: z.array(z.string()),
  filters: z.record(z.string(), z.unknown()).optional(),
});

/** A profile read from the shared bucket: parsed and its self-signature checked. */
export function parseProfile(text: string): AgentProfile | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const verified = verifyAgentProfile(value, nativeEd25519);
  return verified.ok ? verified.value : undefined;
}

/** A subscription read from the shared bucket, parsed with its schema. */
export function parseSubscription(text: string): EventSubscription | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = SubscriptionSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const { filters, ...rest } = parsed.data;
  return filters === undefined ? rest : { ...rest, filters };
}
