/**
 * What a federation lets an observer (the dashboard, a log) see as it
 * happens: `federation.observe(listener)` calls the listener synchronously
 * with each {@link FederationEvent} — a hub link going up or down, and each
 * audit entry of what crossed the boundary or was refused, tagged with the
 * peer organisation and the direction. A crossing carries the readable
 * payload only of a message this hub verified itself (one of its own agents'
 * going out, or one it accepted from a peer), never of a refused inbound one.
 * Nothing is computed while no listener is attached; a listener that throws
 * is reported through the federation's `onError`. The events are defined
 * once, in `@ocp/a2a-ocp-messaging/observe`, below the hub and the dashboard.
 */
import type { AuditEntry, WireMessage } from "@ocp/a2a-ocp-messaging";
import type { createDecompressor } from "@ocp/a2a-ocp-messaging/node";
import type { FederationEvent, FederationListener } from "@ocp/a2a-ocp-messaging/observe";
import { readablePayload } from "../readable.js";

/** Where a crossing's payload comes from: committed text of this hub, or a message it accepted. */
export type CrossingSource = string | WireMessage | undefined;

/**
 * Whose an audit entry is, for observers: the peer hub, the direction, the
 * message (its payload). The federation audits every entry and shows those
 * it knows this of to its observers.
 */
export interface CrossingSeen {
  peer: string;
  direction: "in" | "out";
  source?: CrossingSource;
}

/** The federation's listeners; `emit*` do nothing while there are none. */
export class FederationObservers {
  readonly #listeners = new Set<FederationListener>();
  readonly #decompress: ReturnType<typeof createDecompressor>;
  readonly #onError: (error: unknown) => void;

  constructor(
    decompress: ReturnType<typeof createDecompressor>,
    onError: (error: unknown) => void,
  ) {
    this.#decompress = decompress;
    this.#onError = onError;
  }

  listen(listener: FederationListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  link(peer: string, open: boolean): void {
    if (this.#listeners.size > 0) this.#emit({ kind: "link", at: Date.now(), peer, open });
  }

  /** An audit entry of the federation (`refused`, else crossed), as `seen` says whose it is. */
  entry(entry: Omit<AuditEntry, "at">, seen: CrossingSeen): void {
    if (this.#listeners.size === 0) return;
    const { id, from, to, type, code, reason } = entry;
    const payload = this.#payload(seen.source);
    this.#emit({
      kind: "crossing",
      at: Date.now(),
      peer: seen.peer,
      direction: seen.direction,
      outcome: entry.event === "refused" ? "refused" : "crossed",
      id,
      from,
      to: to ?? [],
      type,
      code,
      reason,
      ...(payload === undefined ? {} : { payload }),
    });
  }

  #payload(source: CrossingSource): unknown {
    if (source === undefined) return undefined;
    try {
      const wire = typeof source === "string" ? (JSON.parse(source) as WireMessage) : source;
      const readable = readablePayload(wire, this.#decompress);
      return "refused" in readable ? undefined : readable.payload;
    } catch {
      return undefined; // Committed text was parsed when it was accepted; a sealed one has no payload here.
    }
  }

  #emit(event: FederationEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#onError(error);
      }
    }
  }
}
