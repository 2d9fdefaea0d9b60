import type { Capabilities, ProviderInfo } from "@ocp/types";
import type { ConsentReceipt } from "./consent.js";
import type { LegOutcome } from "./fanout.js";

/** How a provider reaches the host. */
export type ProviderTransport = "in-process" | "stdio" | "http";

/** Everything the host reports while it works, by event name. */
export interface HostEvents {
  provider_added: {
    providerId: string;
    info: ProviderInfo;
    capabilities: Capabilities;
    transport: ProviderTransport;
    egress: boolean;
  };
  provider_removed: { providerId: string };
  /** An egress provider was wanted but has no consent (C1, C2): ask the user. */
  consent_asked: {
    providerId: string;
    name: string;
    version: string;
    whatLeaves: string;
    /** C6 (contextgraph/1): the off-machine egress scopes that lack a receipt. */
    scopes?: string[];
  };
  consent_granted: { receipt: ConsentReceipt };
  consent_revoked: { receipt: ConsentReceipt };
  leg_started: { providerId: string; timeoutMs: number };
  leg_finished: {
    providerId: string;
    outcome: "ok" | "failed" | "dropped";
    reason?: string;
    frames: number;
    latencyMs: number;
  };
  /** B2: a provider's frames were dropped, with the figures that condemned them. */
  frames_dropped: { providerId: string; frames: number; rules: string[]; message: string };
  /** K1, M1: frames of kinds not asked for, or past max_frames, were removed; the rest kept. */
  frames_trimmed: { providerId: string; removed: number; rules: string[]; message: string };
}

export type HostEventName = keyof HostEvents;
export type HostListener<E extends HostEventName> = (event: HostEvents[E]) => void;

/**
 * A small typed emitter. Listeners run synchronously in registration order;
 * a listener that throws is isolated (its error is handed to `onListenerError`)
 * so observability can never break a query.
 */
export class HostEventEmitter {
  readonly #listeners = new Map<HostEventName, Set<(event: never) => void>>();
  readonly #onListenerError: (error: unknown, event: HostEventName) => void;

  constructor(onListenerError: (error: unknown, event: HostEventName) => void) {
    this.#onListenerError = onListenerError;
  }

  /** Subscribes; returns the function that unsubscribes. */
  on<E extends HostEventName>(name: E, listener: HostListener<E>): () => void {
    let set = this.#listeners.get(name);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(name, set);
    }
    set.add(listener as (event: never) => void);
    return () => this.off(name, listener);
  }

  off<E extends HostEventName>(name: E, listener: HostListener<E>): void {
    this.#listeners.get(name)?.delete(listener as (event: never) => void);
  }

  /** Whether anything listens to `name`: an event nobody hears is not built. */
  listens(name: HostEventName): boolean {
    const set = this.#listeners.get(name);
    return set !== undefined && set.size > 0;
  }

  emit<E extends HostEventName>(name: E, event: HostEvents[E]): void {
    const set = this.#listeners.get(name);
    if (set === undefined) return;
    for (const listener of [...set]) {
      try {
        (listener as HostListener<E>)(event);
      } catch (error) {
        this.#onListenerError(error, name);
      }
    }
  }
}

/**
 * Reports one finished leg: the loud line and `frames_trimmed` (K1, M1) or
 * `frames_dropped` (B2) when the audit acted, then `leg_finished`.
 */
export function reportLeg(
  events: HostEventEmitter,
  warn: (message: string) => void,
  providerId: string,
  outcome: LegOutcome,
): void {
  if (outcome.kind === "ok" && outcome.trimmed !== undefined) {
    warn(outcome.trimmed.message);
    events.emit("frames_trimmed", {
      providerId,
      removed: outcome.trimmed.removed,
      rules: [...new Set(outcome.trimmed.violations.map((v) => v.rule))],
      message: outcome.trimmed.message,
    });
  }
  if (outcome.kind === "dropped") {
    warn(outcome.liar.message);
    events.emit("frames_dropped", {
      providerId,
      frames: outcome.liar.frames.length,
      rules: [...new Set(outcome.liar.violations.map((v) => v.rule))],
      message: outcome.liar.message,
    });
  }
  if (!events.listens("leg_finished")) return;
  events.emit("leg_finished", {
    providerId,
    outcome: outcome.kind,
    ...(outcome.kind === "failed" ? { reason: outcome.failure.reason } : {}),
    frames: outcome.kind === "failed" ? 0 : outcome.result.frames.length,
    latencyMs:
      outcome.kind === "ok"
        ? outcome.latencyMs
        : outcome.kind === "failed"
          ? outcome.failure.latencyMs
          : outcome.liar.latencyMs,
  });
}
