/** How the federation's audit entries name what they are about. */
import type { StoredMessage } from "../store.js";

/** The audit's view of a committed message: its id, sender and top-level `type` (not a node's). */
export function describe(stored: StoredMessage): { id: string; from: string; type?: string } {
  let type: string | undefined;
  try {
    const value: unknown = JSON.parse(stored.raw);
    if (typeof value === "object" && value !== null && "type" in value) {
      type = typeof value.type === "string" ? value.type.slice(0, 128) : undefined;
    }
  } catch {
    // A committed message was parsed when it was accepted; a sealed or odd one is audited without a type.
  }
  return { id: stored.id, from: stored.sender, ...(type === undefined ? {} : { type }) };
}

export function describeHello(value: unknown): string {
  const hubId = (value as { payload?: { hubId?: unknown } } | null)?.payload?.hubId;
  return typeof hubId === "string" ? hubId.slice(0, 512) : "(unknown hub)";
}
