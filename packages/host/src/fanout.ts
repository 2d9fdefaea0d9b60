import {
  type Capabilities,
  type ContextFrame,
  type ContextProvider,
  type ContextQuery,
  type ContextQueryResult,
  ContextQueryResultSchema,
  describeIssues,
  isOcpError,
  type OcpError,
  StrictContextQueryResultSchema,
} from "@ocp/types";
import { isPlainResult } from "@ocp/types/fast";
import { type AuditViolation, auditAnswer, describeViolations } from "./audit.js";
import { LEG_DEADLINES } from "./deadlines.js";
import { hostError } from "./errors.js";

/** Why a fan-out leg produced no frames. Every one is a value, never a throw. */
export type LegFailureReason =
  | "consent_required"
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

/** B2: a provider whose answer broke a rule; none of its frames is trusted. */
export interface Liar {
  readonly providerId: string;
  readonly violations: readonly AuditViolation[];
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
    }
  | { readonly kind: "failed"; readonly failure: LegFailure }
  | { readonly kind: "dropped"; readonly liar: Liar; readonly result: ContextQueryResult };

/**
 * Codes a transport uses when the provider process or connection is gone;
 * such a leg is reported `crashed` rather than `provider_error`.
 */
const CRASH_CODES: ReadonlySet<string> = new Set([
  "crashed",
  "provider_crashed",
  "exited",
  "provider_exited",
  "process_exited",
  "child_exited",
  "spawn_failed",
  "closed",
  "connection_closed",
  "connection_failed",
  "stream_closed",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
]);

function reasonOf(error: unknown): LegFailureReason {
  if (isOcpError(error)) {
    if (error.code === "timeout") return "timeout";
    if (error.code === "aborted") return "aborted";
    if (error.code === "invalid_response" || error.code === "malformed_reply") {
      return "invalid_response";
    }
    if (error.code === "incompatible_version") return "incompatible";
    if (CRASH_CODES.has(error.code)) return "crashed";
    const cause = (error as { cause?: unknown }).cause as { code?: unknown } | undefined;
    if (typeof cause?.code === "string" && CRASH_CODES.has(cause.code)) return "crashed";
    return "provider_error";
  }
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === "string" && CRASH_CODES.has(code)) return "crashed";
  return "provider_error";
}

function asOcpError(providerId: string, reason: LegFailureReason, error: unknown): OcpError {
  if (isOcpError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return hostError("provider_error", `provider "${providerId}" failed: ${message}`, {
    cause: error,
    details: { providerId, reason },
  });
}

/** Whether a provider declaring `capabilities` serves any of `kinds` (empty = any). */
export function servesKinds(capabilities: Capabilities, kinds: readonly string[]): boolean {
  if (kinds.length === 0) return true;
  const declared = capabilities.query.kinds;
  if (declared.length === 0) return true;
  return kinds.some((kind) => declared.includes(kind));
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
 * Runs one leg: queries the provider under its own timeout and abort, parses
 * the answer with the schema, and audits it. Never throws: a provider that
 * throws, rejects, hangs, ignores its abort signal or returns garbage yields a
 * failure value; one that breaks a rule yields a liar.
 */
export async function runLeg(
  provider: ContextProvider,
  query: ContextQuery,
  options: {
    timeoutMs: number;
    signal?: AbortSignal;
    measureCosts?: boolean;
    /**
     * Whether the provider's transport decodes every answer by the envelope
     * schema (`@ocp/transport-stdio`, `@ocp/transport-http`): its result is
     * not parsed a second time (the strict S1 check still runs).
     */
    decoded?: boolean;
  },
): Promise<LegOutcome> {
  const providerId = provider.id;
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  const controller = new AbortController();
  const outer = options.signal;
  if (outer?.aborted) {
    return failure(providerId, "aborted", hostError("aborted", `query to "${providerId}" aborted`));
  }
  const onOuterAbort = () =>
    controller.abort(
      hostError("aborted", `query to "${providerId}" aborted by the caller`, {
        cause: outer?.reason,
        details: { providerId },
      }),
    );
  outer?.addEventListener("abort", onOuterAbort, { once: true });
  const stopped = new Promise<never>((_, reject) => {
    controller.signal.addEventListener("abort", () => reject(controller.signal.reason), {
      once: true,
    });
  });
  const deadline = LEG_DEADLINES.add(options.timeoutMs, () =>
    controller.abort(
      hostError(
        "timeout",
        `provider "${providerId}" did not answer within ${options.timeoutMs} ms`,
        { details: { providerId, timeoutMs: options.timeoutMs } },
      ),
    ),
  );
  stopped.catch(() => undefined);
  let call: Promise<unknown>;
  try {
    call = Promise.resolve(provider.query(query, { signal: controller.signal }));
  } catch (error) {
    call = Promise.reject(error);
  }
  // A provider that settles after its leg timed out must not become an unhandled rejection.
  call.catch(() => undefined);
  try {
    const value = await Promise.race([call, stopped]);
    // A transport that decoded the answer by the envelope schema hands over a parsed result.
    const parsed = options.decoded
      ? ({ success: true, data: value as ContextQueryResult } as const)
      : ContextQueryResultSchema.safeParse(value);
    if (!parsed.success) {
      const error = hostError(
        "invalid_response",
        `provider "${providerId}" answered with an invalid result: ${describeIssues(parsed.error)}`,
        { details: { providerId } },
      );
      return failure(providerId, "invalid_response", error, elapsed());
    }
    const result = parsed.data;
    const audit = auditAnswer(query, result, { measureCosts: options.measureCosts !== false });
    const violations = audit.violations;
    // The strict schema only where the plain-form check cannot already vouch for the result.
    const strict =
      audit.verdict === "drop" || isPlainResult(audit.result, { strict: true })
        ? undefined
        : StrictContextQueryResultSchema.safeParse(audit.result);
    if (strict?.success === false) {
      // S1: what the reference's schema refuses (an empty id, an empty provenance type, …).
      const error = hostError(
        "invalid_response",
        `provider "${providerId}" answered with a result the envelope schema refuses (S1): ${describeIssues(strict.error)}`,
        { details: { providerId } },
      );
      return failure(providerId, "invalid_response", error, elapsed());
    }
    if (audit.verdict === "trim") {
      const trimmed: Trim = {
        providerId,
        violations,
        removed: audit.removed,
        message: describeViolations(providerId, query, result, violations, "trimmed"),
      };
      return { kind: "ok", providerId, result: audit.result, latencyMs: elapsed(), trimmed };
    }
    if (audit.verdict === "drop") {
      const liar: Liar = {
        providerId,
        violations,
        frames: result.frames,
        message: describeViolations(providerId, query, result, violations),
        latencyMs: elapsed(),
      };
      return { kind: "dropped", liar, result };
    }
    return { kind: "ok", providerId, result, latencyMs: elapsed() };
  } catch (error) {
    const cause = controller.signal.aborted ? controller.signal.reason : error;
    const reason = reasonOf(cause);
    return failure(providerId, reason, asOcpError(providerId, reason, cause), elapsed());
  } finally {
    LEG_DEADLINES.clear(deadline);
    outer?.removeEventListener("abort", onOuterAbort);
  }
}

/** Folds leg outcomes (in provider order) into one {@link FanOutResult}. */
export function assembleFanOut(
  query: ContextQuery,
  outcomes: readonly LegOutcome[],
  skipped: readonly SkippedProvider[],
  elapsedMs: number,
): FanOutResult {
  const accepted: AcceptedFrame[] = [];
  const failures: LegFailure[] = [];
  const liars: Liar[] = [];
  const trimmed: Trim[] = [];
  const usage: ProviderUsage[] = [];
  for (const outcome of outcomes) {
    if (outcome.kind === "ok") {
      if (outcome.trimmed !== undefined) trimmed.push(outcome.trimmed);
      for (const frame of outcome.result.frames)
        accepted.push({ providerId: outcome.providerId, frame });
      usage.push({
        providerId: outcome.providerId,
        outcome: "ok",
        frames: outcome.result.frames.length,
        acceptedFrames: outcome.result.frames.length,
        tokens: sumCost(outcome.result.frames),
        latencyMs: outcome.latencyMs,
        truncated: outcome.result.truncated,
      });
    } else if (outcome.kind === "dropped") {
      liars.push(outcome.liar);
      usage.push({
        providerId: outcome.liar.providerId,
        outcome: "dropped",
        frames: outcome.result.frames.length,
        acceptedFrames: 0,
        tokens: sumCost(outcome.result.frames),
        latencyMs: outcome.liar.latencyMs,
        truncated: outcome.result.truncated,
      });
    } else {
      failures.push(outcome.failure);
      usage.push({
        providerId: outcome.failure.providerId,
        outcome: "failed",
        frames: 0,
        acceptedFrames: 0,
        tokens: 0,
        latencyMs: outcome.failure.latencyMs,
        truncated: false,
      });
    }
  }
  return { query, accepted, failures, liars, trimmed, skipped, usage, elapsedMs };
}

function sumCost(frames: readonly ContextFrame[]): number {
  let sum = 0;
  for (const frame of frames) sum += frame.token_cost;
  return sum;
}
