/**
 * The hub's inbound checks: the message layer's {@link MessageStages} (the
 * same stages as the agent-side `InboundPipeline`), with one more after the
 * schema: the message's `from` must be the agent that authenticated the
 * connection (`sender_mismatch`). The signature stage runs when the caller
 * says so — always for a message the hub acts on or stores, and for
 * forwarded ones when `verifyForwarded` is on. Keys come from the verified
 * profiles of registered agents (synchronous, native Ed25519).
 */
import {
  type Ed25519Backend,
  type InboundErrorCode,
  RateLimiter,
  ReplayWindow,
  type Result,
  verifyMessageSync,
  type WireMessage,
} from "@ocp/a2a-ocp-messaging";
import {
  DEFAULT_TTL_SECONDS,
  fail,
  MAX_CLOCK_SKEW_MS,
  MAX_JSON_DEPTH,
  MessageStages,
  ok,
} from "@ocp/a2a-ocp-messaging/internal";
import { MAX_PAYLOAD_BYTES } from "@ocp/transport-ws/internal";
import { HUB_FRAME_OVERHEAD_BYTES } from "./limits.js";
import type { OCPHubOptions } from "./options.js";
import { isDurable } from "./router.js";

/**
 * Whether the hub verifies the signature of `wire` itself: always, unless
 * `verifyForwarded: false`, and then still for durable messages and event
 * subscription changes (what the hub acts on or keeps).
 */
export function mustVerify(options: OCPHubOptions, wire: WireMessage): boolean {
  return (
    options.verifyForwarded !== false ||
    isDurable(wire) ||
    wire.type === "ocp.event.subscribe" ||
    wire.type === "ocp.event.unsubscribe"
  );
}

/** The inbound stages of a hub with `options` (limits, replay window, rate limits). */
export function hubStages(options: OCPHubOptions, now: () => number): MessageStages {
  const transportMax = options.transport?.maxPayloadBytes ?? MAX_PAYLOAD_BYTES;
  return new MessageStages({
    maxMessageBytes: options.maxMessageBytes ?? transportMax - HUB_FRAME_OVERHEAD_BYTES,
    maxJsonDepth: MAX_JSON_DEPTH,
    maxClockSkewMs: options.maxClockSkewMs ?? MAX_CLOCK_SKEW_MS,
    defaultTtlSeconds: options.defaultTtlSeconds ?? DEFAULT_TTL_SECONDS,
    replay: new ReplayWindow(
      options.replayWindowEntries === undefined ? {} : { maxEntries: options.replayWindowEntries },
    ),
    rateLimiter:
      options.rateLimits === false ? undefined : new RateLimiter(options.rateLimits ?? {}),
    now,
  });
}

export type HubCheckCode = InboundErrorCode | "sender_mismatch";

export interface HubCheckOptions {
  stages: MessageStages;
  ed25519: Ed25519Backend;
  keyOf: (agentId: string) => Uint8Array | undefined;
}

/** A message that passed the checks, with its parsed JSON and its deadline (ms). */
export interface CheckedMessage {
  wire: WireMessage;
  json: Record<string, unknown>;
  deadline: number;
  verified: boolean;
}

export function checkInbound(
  raw: string,
  sender: string,
  mustVerify: (wire: WireMessage) => boolean,
  o: HubCheckOptions,
): Result<CheckedMessage, HubCheckCode> {
  // 1–3. size, JSON, schema
  const parsed = o.stages.parse(raw);
  if (!parsed.ok) return parsed;
  const { wire, json } = parsed.value;
  // 3b. the sender is the authenticated agent
  if (wire.from !== sender) {
    return fail("sender_mismatch", `message from ${wire.from} on the connection of ${sender}`, {
      details: { from: wire.from, authenticated: sender },
    });
  }
  // 4. signature: the message layer's §8.3 check, the same code as the agent's verifyMessage
  let verified = false;
  if (mustVerify(wire)) {
    const signature = verifyMessageSync(json, o.keyOf, o.ed25519);
    if (!signature.ok) return signature;
    verified = true;
  }
  // 5–7. freshness, replay, rate limit
  const deadline = o.stages.admit(wire);
  if (!deadline.ok) return deadline;
  return ok({ wire, json, deadline: deadline.value, verified });
}
