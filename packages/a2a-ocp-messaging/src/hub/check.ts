/**
 * The hub's inbound checks, in the order of the message layer's
 * {@link InboundPipeline} (size, JSON, schema, signature, freshness, replay,
 * rate limit), with one more after the schema: the message's `from` must be
 * the agent that authenticated the connection (`sender_mismatch`). The
 * signature stage runs when the caller says so — always for a message the
 * hub acts on or stores, and for forwarded ones when `verifyForwarded` is on.
 * Keys come from the verified profiles of registered agents (synchronous,
 * native Ed25519).
 */
import { decodeMessage } from "../decode.js";
import { fail, ok, type Result } from "../errors.js";
import { checkFreshness } from "../freshness.js";
import type { InboundErrorCode } from "../inbound.js";
import { parseJson, utf8Length } from "../json.js";
import type { WireMessage } from "../messages.js";
import type { RateLimiter } from "../rate-limit.js";
import type { ReplayWindow } from "../replay.js";
import { type Ed25519Backend, verifyObject } from "../signing.js";

export type HubCheckCode = InboundErrorCode | "sender_mismatch";

export interface HubCheckOptions {
  maxMessageBytes: number;
  maxJsonDepth: number;
  maxClockSkewMs: number;
  defaultTtlSeconds: number;
  replay: ReplayWindow;
  rateLimiter: RateLimiter | undefined;
  ed25519: Ed25519Backend;
  keyOf: (agentId: string) => Uint8Array | undefined;
  now: () => number;
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
  // 1. size
  const size = raw.length * 3 <= o.maxMessageBytes ? raw.length : utf8Length(raw);
  if (size > o.maxMessageBytes) {
    return fail("message_too_large", `message exceeds ${o.maxMessageBytes} bytes`, {
      details: { maxMessageBytes: o.maxMessageBytes },
    });
  }
  // 2. JSON
  const json = parseJson(raw, o.maxJsonDepth);
  if (!json.ok) return json;
  // 3. schema
  const decoded = decodeMessage(json.value);
  if (!decoded.ok) return decoded;
  const wire = decoded.value;
  // 3b. the sender is the authenticated agent
  if (wire.from !== sender) {
    return fail("sender_mismatch", `message from ${wire.from} on the connection of ${sender}`, {
      details: { from: wire.from, authenticated: sender },
    });
  }
  const record = json.value as Record<string, unknown>;
  // 4. signature
  let verified = false;
  if (mustVerify(wire)) {
    if (wire.signature === undefined) {
      return fail("signature_missing", `message from ${wire.from} is not signed`);
    }
    const key = o.keyOf(wire.from);
    if (key === undefined) return fail("unknown_sender", `no public key for ${wire.from}`);
    if (!verifyObject(record, key, o.ed25519)) {
      return fail("signature_invalid", `the signature does not verify for ${wire.from}`, {
        details: { from: wire.from },
      });
    }
    verified = true;
  }
  // 5. freshness
  const now = o.now();
  const fresh = checkFreshness(wire, {
    now,
    defaultTtlSeconds: o.defaultTtlSeconds,
    maxClockSkewMs: o.maxClockSkewMs,
  });
  if (!fresh.ok) return fresh;
  const deadline = fresh.value;
  // 6. replay
  const replayed = o.replay.check(wire.id, deadline, now);
  if (!replayed.ok) return replayed;
  // 7. rate limit
  if (o.rateLimiter !== undefined) {
    const limited = o.rateLimiter.take(wire.from, wire);
    if (!limited.ok) return limited;
  }
  o.replay.record(wire.id, deadline, now);
  return ok({ wire, json: record, deadline, verified });
}
