import type { ContextQuery } from "@ocp/types";
import type { Tracer } from "@opentelemetry/api";
import { type CgpLegContext, cgpGate, cgpQueryFor, runCgpLeg } from "./cgp-leg.js";
import type { ConsentStore } from "./consent.js";
import { type HostEventEmitter, reportLeg } from "./events.js";
import { consentRequired, type LegOutcome } from "./fanout.js";
import { type LegOptions, runLeg, settleWith } from "./leg.js";
import { DEFAULT_LEG_TIMEOUT_MS } from "./limits.js";
import type { HostOptions } from "./options.js";
import type { ReceiptLedger } from "./receipts.js";
import { describeEgress, type Entry, type QueryCallOptions } from "./registry.js";
import { hostTracer } from "./tracing.js";

/** What a leg needs of its host. */
export interface LegHost {
  readonly events: HostEventEmitter;
  readonly warn: (line: string) => void;
  readonly consent: ConsentStore;
  readonly cgp: CgpLegContext;
  readonly legTimeoutMs: number;
  readonly measureCosts: boolean;
  /** Defined when tracing is on (tracing.ts). */
  readonly tracer: Tracer | undefined;
}

/** The leg context of a host built with `options`. */
export function legHostOf(
  options: HostOptions,
  consent: ConsentStore,
  receipts: ReceiptLedger,
  events: HostEventEmitter,
  warn: (line: string) => void,
): LegHost {
  return {
    events,
    warn,
    consent,
    cgp: {
      consent,
      receipts,
      events,
      embeddingFingerprint: options.embeddingFingerprint,
      trustedRoots: [...(options.trustedRoots ?? [])],
    },
    legTimeoutMs: options.legTimeoutMs ?? DEFAULT_LEG_TIMEOUT_MS,
    measureCosts: options.measureCosts ?? true,
    tracer: hostTracer(options.tracing),
  };
}

/**
 * Starts one leg to one provider, by the family its handshake settled: the
 * contextgraph/1 gate (C6, then C1/C2) and rulebook, or the ocp/1 gate (C1,
 * C2) and audit. Nothing is sent through a shut gate. Reports the outcome,
 * then settles with `finish(outcome)` (the outcome itself without `finish`).
 */
export function startLeg(
  host: LegHost,
  id: string,
  entry: Entry,
  query: ContextQuery,
  options: QueryCallOptions,
): Promise<LegOutcome>;
export function startLeg<R>(
  host: LegHost,
  id: string,
  entry: Entry,
  query: ContextQuery,
  options: QueryCallOptions,
  finish: (outcome: LegOutcome) => R,
): Promise<R>;
export function startLeg<R>(
  host: LegHost,
  id: string,
  entry: Entry,
  query: ContextQuery,
  options: QueryCallOptions,
  finish?: (outcome: LegOutcome) => R,
): Promise<R | LegOutcome> {
  const events = host.events;
  const timeoutMs = options.timeoutMs ?? entry.timeoutMs ?? host.legTimeoutMs;
  if (entry.session !== undefined) {
    const session = entry.session;
    const gated = cgpGate(host.cgp, id, entry, session);
    let leg: Promise<LegOutcome>;
    if (gated !== undefined) leg = Promise.resolve(gated);
    else {
      // Built here, after the gate: a refused provider's query is never even encoded.
      let cgpQuery: ReturnType<typeof cgpQueryFor>;
      try {
        cgpQuery = cgpQueryFor(host.cgp, session, query, options);
      } catch (error) {
        return Promise.reject(error);
      }
      if (events.listens("leg_started")) events.emit("leg_started", { providerId: id, timeoutMs });
      leg = runCgpLeg(session, cgpQuery, {
        timeoutMs,
        signal: options.signal,
        trustedRoots: host.cgp.trustedRoots,
      });
    }
    return leg.then((outcome) => {
      reportLeg(events, host.warn, id, outcome);
      return finish === undefined ? outcome : finish(outcome);
    });
  }
  if (entry.egress && !host.consent.isGranted(id, entry.info.name)) {
    // C1, C2: nothing is sent; the app is asked.
    events.emit("consent_asked", {
      providerId: id,
      name: entry.info.name,
      version: entry.info.version,
      whatLeaves: describeEgress(entry),
    });
    const outcome = consentRequired(id, entry.info.name);
    reportLeg(events, host.warn, id, outcome);
    return settleWith(outcome, finish);
  }
  if (events.listens("leg_started")) events.emit("leg_started", { providerId: id, timeoutMs });
  const legOptions = legOptionsOf(host, id, entry, options, timeoutMs);
  return finish === undefined
    ? runLeg(entry.provider, query, legOptions)
    : runLeg(entry.provider, query, legOptions, finish);
}

/**
 * The options of one ocp/1 leg. A call that names neither a timeout nor a
 * signal (the usual one) gets the options of its provider, built on its
 * first call and kept on its entry, reporting closure included; any other
 * call gets its own.
 */
function legOptionsOf(
  host: LegHost,
  id: string,
  entry: Entry,
  options: QueryCallOptions,
  timeoutMs: number,
): LegOptions {
  const plain = options.timeoutMs === undefined && options.signal === undefined;
  if (plain && entry.kept.legOptions !== undefined) return entry.kept.legOptions;
  const events = host.events;
  const warn = host.warn;
  const legOptions: LegOptions = {
    timeoutMs,
    signal: options.signal,
    measureCosts: host.measureCosts,
    decoded: entry.decoded,
    onOutcome: (outcome) => reportLeg(events, warn, id, outcome),
    tracer: host.tracer,
  };
  if (plain) entry.kept.legOptions = Object.freeze(legOptions);
  return legOptions;
}
