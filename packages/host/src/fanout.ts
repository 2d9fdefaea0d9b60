import type {
  Capabilities,
  ContextFrame,
  ContextQuery,
  ContextQueryResult,
  OcpError,
} from "@ocp/types";
import type { CgpFilterViolation, CgpFrame, Violation as CgpViolation } from "@ocp/types/cgp";
import type { AuditViolation } from "./audit.js";
import { hostError } from "./errors.js";

/** Why a fan-out leg produced no frames. Every one is a value, never a throw. */
export type LegFailureReason =
  | "consent_required"
  | "consent_scope_required"
  | "timeout"
  | "aborted"
  | "crashed"
  | "provider_error"
  | "incompatible"
  | "invalid_response";

export interface LegFailure {
  readonly providerId: string;
  readonly reason: LegFailureReason;
  readonly error: OcpError;
  readonly latencyMs: number;
}

/** A contextgraph/1 rule broken, with the index of the frame at fault when one is. */
export type CgpLiarViolation = (CgpViolation | CgpFilterViolation) & {
  readonly frameIndex?: number;
};

/** B2: a provider whose answer broke a rule; none of its frames is trusted. */
export interface Liar {
  readonly providerId: string;
  /** The rules broken: the ocp/1 audit's, or `cgpAnswerViolations`' under contextgraph/1. */
  readonly violations: readonly (AuditViolation | CgpLiarViolation)[];
  /** The dropped frames, kept only so `compose` can audit them as quarantined. */
  readonly frames: readonly ContextFrame[];
  /** The loud report: provider, rules and figures. */
  readonly message: string;
  readonly latencyMs: number;
}

/**
 * K1, M1 (extensions): a provider that sent frames of kinds not asked for or
 * more than `max_frames`; those frames were removed and the rest kept, as the
 * rule table says (the suite only advises on these).
 */
export interface Trim {
  readonly providerId: string;
  readonly violations: readonly AuditViolation[];
  /** Frames removed. */
  readonly removed: number;
  /** The report: provider, rules and figures. */
  readonly message: string;
}

export interface AcceptedFrame {
  readonly providerId: string;
  readonly frame: ContextFrame;
  /** The frame as a contextgraph/1 provider sent it (its identity for `verifyFrames`). */
  readonly cgp?: CgpFrame;
}

/** A contextgraph/1 frame accepted but not composed: opaque (U2) or without inline content. */
export interface HeldAside {
  readonly providerId: string;
  readonly frame: CgpFrame;
}

/** A provider that was not asked, because it serves none of the kinds asked for. */
export interface SkippedProvider {
  readonly providerId: string;
  readonly reason: "kinds_not_served";
  readonly declaredKinds: readonly string[];
}

/** Per-provider figures of one fan-out. */
export interface ProviderUsage {
  readonly providerId: string;
  readonly outcome: "ok" | "failed" | "dropped";
  /** Frames returned by the provider (accepted or not). */
  readonly frames: number;
  readonly acceptedFrames: number;
  /** Sum of declared `token_cost` over the returned frames. */
  readonly tokens: number;
  readonly latencyMs: number;
  readonly truncated: boolean;
}

export interface FanOutResult {
  readonly query: ContextQuery;
  /** Frames of providers that passed the audit, in provider registration order. */
  readonly accepted: readonly AcceptedFrame[];
  readonly failures: readonly LegFailure[];
  readonly liars: readonly Liar[];
  /** Providers whose answers were trimmed (K1, M1), their remaining frames accepted. */
  readonly trimmed: readonly Trim[];
  readonly skipped: readonly SkippedProvider[];
  readonly usage: readonly ProviderUsage[];
  /** U2 (contextgraph/1): frames of a kind this revision does not define, never composed. */
  readonly opaque: readonly HeldAside[];
  /** §6.4.1 (contextgraph/1): `reference` frames, which contribute nothing to a composition. */
  readonly unresolved: readonly HeldAside[];
  /** Milliseconds until the slowest leg settled (with one leg asked, that leg's latency, rounded). */
  readonly elapsedMs: number;
}

/** The outcome of one audited leg. */
export type LegOutcome =
  | {
      readonly kind: "ok";
      readonly providerId: string;
      readonly result: ContextQueryResult;
      readonly latencyMs: number;
      /** Set when frames were removed (K1, M1); `result` is what was kept. */
      readonly trimmed?: Trim;
      /** contextgraph/1: `frames` as sent (aligned with `result.frames`), and those set aside. */
      readonly cgp?: {
        readonly frames: readonly CgpFrame[];
        readonly opaque: readonly CgpFrame[];
        readonly unresolved: readonly CgpFrame[];
      };
    }
  | { readonly kind: "failed"; readonly failure: LegFailure }
  | { readonly kind: "dropped"; readonly liar: Liar; readonly result: ContextQueryResult };

/** Whether a provider declaring `capabilities` serves any of `kinds` (empty = any). */
export function servesKinds(capabilities: Capabilities, kinds: readonly string[]): boolean {
  if (kinds.length === 0) return true;
  const declared = capabilities.query.kinds;
  if (declared.length === 0) return true;
  for (const kind of kinds) if (declared.includes(kind)) return true;
  return false;
}

export function failure(
  providerId: string,
  reason: LegFailureReason,
  error: OcpError,
  latencyMs = 0,
): LegOutcome {
  return { kind: "failed", failure: { providerId, reason, error, latencyMs } };
}

/** C2: the leg of an egress provider without consent; nothing was sent. */
export function consentRequired(providerId: string, name: string): LegOutcome {
  const message = `provider "${providerId}" (${name}) is egress and has no consent (C2)`;
  const error = hostError("consent_required", message, { details: { providerId, name } });
  return failure(providerId, "consent_required", error);
}

/**
 * Folds leg outcomes (in provider order) into one {@link FanOutResult}. The
 * lists of accepted frames and usage rows are sized before they are filled
 * (one allocation each, not one growth per push), and a leg with nothing to
 * set aside adds nothing.
 */
export function assembleFanOut(
  query: ContextQuery,
  outcomes: readonly LegOutcome[],
  skipped: readonly SkippedProvider[],
  elapsedMs: number,
): FanOutResult {
  let frameCount = 0;
  for (const outcome of outcomes) {
    if (outcome.kind === "ok") frameCount += outcome.result.frames.length;
  }
  const accepted: AcceptedFrame[] = new Array(frameCount);
  const usage: ProviderUsage[] = new Array(outcomes.length);
  const failures: LegFailure[] = [];
  const liars: Liar[] = [];
  const trimmed: Trim[] = [];
  const opaque: HeldAside[] = [];
  const unresolved: HeldAside[] = [];
  let next = 0;
  for (let leg = 0; leg < outcomes.length; leg += 1) {
    const outcome = outcomes[leg] as LegOutcome;
    if (outcome.kind === "ok") {
      if (outcome.trimmed !== undefined) trimmed.push(outcome.trimmed);
      const providerId = outcome.providerId;
      const frames = outcome.result.frames;
      const cgp = outcome.cgp;
      for (let i = 0; i < frames.length; i += 1) {
        const frame = frames[i] as ContextFrame;
        const sent = cgp?.frames[i];
        accepted[next] =
          sent === undefined ? { providerId, frame } : { providerId, frame, cgp: sent };
        next += 1;
      }
      if (cgp !== undefined) {
        for (const frame of cgp.opaque) opaque.push({ providerId, frame });
        for (const frame of cgp.unresolved) unresolved.push({ providerId, frame });
      }
      usage[leg] = {
        providerId,
        outcome: "ok",
        frames: frames.length,
        acceptedFrames: frames.length,
        tokens: sumCost(frames),
        latencyMs: outcome.latencyMs,
        truncated: outcome.result.truncated,
      };
    } else if (outcome.kind === "dropped") {
      liars.push(outcome.liar);
      usage[leg] = {
        providerId: outcome.liar.providerId,
        outcome: "dropped",
        frames: outcome.result.frames.length,
        acceptedFrames: 0,
        tokens: sumCost(outcome.result.frames),
        latencyMs: outcome.liar.latencyMs,
        truncated: outcome.result.truncated,
      };
    } else {
      failures.push(outcome.failure);
      usage[leg] = {
        providerId: outcome.failure.providerId,
        outcome: "failed",
        frames: 0,
        acceptedFrames: 0,
        tokens: 0,
        latencyMs: outcome.failure.latencyMs,
        truncated: false,
      };
    }
  }
  return {
    query,
    accepted,
    failures,
    liars,
    trimmed,
    skipped,
    usage,
    opaque,
    unresolved,
    elapsedMs,
  };
}

/** How long a leg took, whatever its outcome (0 for one that ended before anything was sent). */
export function latencyOf(outcome: LegOutcome): number {
  if (outcome.kind === "ok") return outcome.latencyMs;
  return outcome.kind === "failed" ? outcome.failure.latencyMs : outcome.liar.latencyMs;
}

function sumCost(frames: readonly ContextFrame[]): number {
  let sum = 0;
  for (const frame of frames) sum += frame.token_cost;
  return sum;
}

/** What `queryProvider` gives for a leg's outcome: the result, or the leg's error thrown. */
export function resultOf(outcome: LegOutcome): ContextQueryResult {
  if (outcome.kind === "ok") return outcome.result;
  if (outcome.kind === "failed") throw outcome.failure.error;
  throw hostError("provider_violation", outcome.liar.message, {
    details: { providerId: outcome.liar.providerId, violations: outcome.liar.violations },
  });
}
