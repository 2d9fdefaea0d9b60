/**
 * What a hub lets an observer (a dashboard, a log) see as it happens:
 * `hub.observe(listener)` calls the listener synchronously with each
 * {@link HubEvent}. Nothing is computed while no listener is attached, so an
 * unobserved hub pays one size check per message. Listeners must be quick and
 * must not change the events they get (payloads are the hub's own parsed
 * objects); one that throws is reported through the hub's `onError`. The
 * events are defined once, in `@ocp/a2a-ocp-messaging/observe`, below the hub
 * and the dashboard that reads them.
 */
import type { AuditLog } from "@ocp/a2a-ocp-messaging";
import type { HubEvent, HubListener } from "@ocp/a2a-ocp-messaging/observe";
import { HubAudit } from "./audit.js";
import { isDurable } from "./router.js";

/** The hub's listeners; `emit*` do nothing (and allocate nothing) while there are none. */
export class HubObservers {
  readonly #listeners = new Set<HubListener>();
  readonly #now: () => number;
  readonly #onError: (error: unknown) => void;

  /** The §3 audit log, when the hub keeps one: it sees every acceptance and refusal. */
  readonly audit: HubAudit | undefined;

  constructor(hub: {
    now: () => number;
    onError: (error: unknown) => void;
    audit?: AuditLog | undefined;
  }) {
    this.#now = hub.now;
    this.#onError = hub.onError;
    this.audit = hub.audit && new HubAudit(hub.audit, hub);
  }

  /** Adds a listener; returns the function that removes it. */
  add(listener: HubListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  agent(agentId: string, joined: boolean): void {
    if (this.#listeners.size === 0) return;
    const at = this.#now();
    this.#emit(
      joined ? { kind: "agent.registered", at, agentId } : { kind: "agent.left", at, agentId },
    );
  }

  accepted(
    wire: { id: string; type: string; from: string; to: unknown; timestamp?: string },
    payload: unknown,
    verified: boolean,
    routed?: { recipients: readonly string[]; excluded: readonly string[] },
  ): void {
    this.audit?.accepted(wire);
    if (this.#listeners.size === 0) return;
    this.#emit({
      kind: "message.accepted",
      at: this.#now(),
      id: wire.id,
      type: wire.type,
      from: wire.from,
      verified,
      payload,
      recipients: routed?.recipients.length,
      excluded: routed?.excluded.length ?? 0,
      durable: isDurable(wire),
      sentAt: wire.timestamp,
    });
  }

  /** `raw`: the refused text, when there is one (the audit log reads its id, type and `to`). */
  refused(from: string, code: string, message: string, id?: string, raw?: string): void {
    this.audit?.refused(from, code, message, id, raw);
    if (this.#listeners.size === 0) return;
    this.#emit({ kind: "message.refused", at: this.#now(), from, code, message, id });
  }

  #emit(event: HubEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#onError(error);
      }
    }
  }
}
