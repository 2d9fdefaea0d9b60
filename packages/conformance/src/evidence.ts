import { MAX_EVIDENCE_ITEMS, MAX_EXCERPT_CHARS } from "./limits.js";
import type { Incoming } from "./session.js";

/** Quotes provider output, cut to {@link MAX_EXCERPT_CHARS}. */
export function excerpt(text: string): string {
  const quoted = JSON.stringify(text);
  return quoted.length <= MAX_EXCERPT_CHARS ? quoted : `${quoted.slice(0, MAX_EXCERPT_CHARS)}…"`;
}

/** Joins evidence items, naming at most {@link MAX_EVIDENCE_ITEMS} and counting the rest. */
export function listOf(items: readonly string[]): string {
  const shown = items.slice(0, MAX_EVIDENCE_ITEMS);
  const rest = items.length - shown.length;
  return rest > 0 ? `${shown.join("; ")}; … and ${rest} more` : shown.join("; ");
}

/** The last non-empty line of a provider's stderr, for evidence. */
function stderrTail(stderr: string): string {
  const lines = stderr.trim().split("\n");
  const last = lines[lines.length - 1]?.trim() ?? "";
  return last === "" ? "" : ` (stderr: ${excerpt(last)})`;
}

/** How a provider's process ended, in words. */
export function describeExit(exit: { code: number | null; signal: string | null }): string {
  if (exit.signal !== null) return `was killed by ${exit.signal}`;
  return exit.code === null ? "could not be started" : `exited with code ${exit.code}`;
}

/** What happened instead of a reply, in words: "no reply within 10000 ms", "exited with code 1". */
export function describeIncoming(incoming: Incoming): string {
  switch (incoming.kind) {
    case "timeout":
      return `no reply within ${incoming.waitedMs} ms`;
    case "exit":
      return `the provider ${describeExit(incoming)}${stderrTail(incoming.stderr)}`;
    case "failure":
      return `transport failure: ${incoming.message}`;
    case "message": {
      const status = incoming.status === undefined ? "" : ` (HTTP ${incoming.status})`;
      if (!incoming.decoded.ok) {
        return `a message that is not a valid envelope${status}: ${excerpt(incoming.raw)} — ${incoming.decoded.error.message}`;
      }
      return `a "${incoming.decoded.value.type}" envelope${status}`;
    }
  }
}
