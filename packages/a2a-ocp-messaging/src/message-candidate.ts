import type { RuntimeMessageInit } from "./messages.js";
import { randomUuid } from "./uuid.js";
import { PROTOCOL, PROTOCOL_VERSION } from "./version.js";

/**
 * The message a builder is about to check: the envelope fields of `init`
 * with the defaults filled in (a fresh UUID v4 id, now as timestamp, our
 * version). Shared by `createMessage` of the root entry (checked by the
 * schema) and of the browser entry (checked by the checks generated from it),
 * so both build the same message from the same init. Loads no zod.
 */
export function messageCandidate(init: RuntimeMessageInit): Record<string, unknown> {
  const candidate: Record<string, unknown> = {
    protocol: PROTOCOL,
    version: init.version ?? PROTOCOL_VERSION,
    id: init.id ?? randomUuid(),
    from: init.from,
    to: init.to,
    timestamp: init.timestamp ?? new Date().toISOString(),
  };
  // The schema's member order, which its output has (what JCS order keeps when an index-like
  // member name makes `inCanonicalOrder` leave a message as it is).
  for (const key of ["ttl", "correlation_id", "reply_to", "priority"] as const) {
    if (init[key] !== undefined) candidate[key] = init[key];
  }
  candidate["type"] = init.type;
  candidate["payload"] = init.payload;
  return candidate;
}
