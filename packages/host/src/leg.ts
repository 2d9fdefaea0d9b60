import {
  type ContextProvider,
  type ContextQuery,
  type ContextQueryResult,
  ContextQueryResultSchema,
  describeIssues,
  isOcpError,
  type OcpError,
  StrictContextQueryResultSchema,
} from "@ocp/types";
import { meetsStrictRules } from "@ocp/types/fast";
import { Deadlines } from "@ocp/types/internal";
import type { Tracer } from "@opentelemetry/api";
import { auditAnswer, describeViolations } from "./audit.js";
import { isProviderCrashCode } from "./crash-codes.js";
import { hostError } from "./errors.js";
import { failure, type LegFailureReason, type LegOutcome, type Liar, type Trim } from "./fanout.js";
import { type LegSpan, startLegSpan } from "./tracing.js";

/** The deadlines of every guarded leg of this process's hosts (one timer for all of them). */
const LEG_DEADLINES = new Deadlines();

function reasonOf(error: unknown): LegFailureReason {
  if (isOcpError(error)) {
    if (error.code === "timeout") return "timeout";
    if (error.code === "aborted") return "aborted";
    if (error.code === "invalid_response" || error.code === "malformed_reply") {
      return "invalid_response";
    }
    if (error.code === "incompatible_version") return "incompatible";
    if (isProviderCrashCode(error.code)) return "crashed";
    const cause = (error as { cause?: unknown }).cause as { code?: unknown } | undefined;
    if (isProviderCrashCode(cause?.code)) return "crashed";
    return "provider_error";
  }
  const code = (error as { code?: unknown } | undefined)?.code;
  if (isProviderCrashCode(code)) return "crashed";
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

export interface LegOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  readonly measureCosts?: boolean;
  /**
   * Whether the provider is one of this project's transports
   * (`@ocp/transport-stdio`, `@ocp/transport-http`): it decodes every answer
   * by the envelope schema (so the result is not parsed a second time; the
   * strict S1 check still runs) and it enforces `timeoutMs` and `signal`
   * itself, with typed `timeout` and `aborted` errors, so the leg adds no
   * timer, controller or race of its own.
   */
  readonly decoded?: boolean;
  /** Called with the outcome before the returned promise settles with it (the host reports it). */
  readonly onOutcome?: ((outcome: LegOutcome) => void) | undefined;
  /** Tracing on: the leg's span (`ocp.host.query`), and its `traceparent` to the transport. */
  readonly tracer?: Tracer | undefined;
}

type Answer =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly outcome: LegOutcome };

/**
 * A promise of `finish(outcome)` (of the outcome itself without `finish`),
 * rejected, not thrown, when `finish` throws: how a leg that ends before
 * anything is sent (aborted already, consent not granted) settles.
 */
export function settleWith<R>(
  outcome: LegOutcome,
  finish?: (outcome: LegOutcome) => R,
): Promise<R | LegOutcome> {
  try {
    return Promise.resolve(finish === undefined ? outcome : finish(outcome));
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Runs one leg: queries the provider under its own timeout and abort, parses
 * the answer with the schema, and audits it. Never throws: a provider that
 * throws, rejects, hangs, ignores its abort signal or returns garbage yields a
 * failure value; one that breaks a rule yields a liar.
 */
export function runLeg(
  provider: ContextProvider,
  query: ContextQuery,
  options: LegOptions,
): Promise<LegOutcome>;
/**
 * The same, the outcome mapped by `finish` in the step that settles it (one
 * promise less than a `.then` after it): the returned promise settles with
 * what `finish` returns, or rejects with what it throws.
 */
export function runLeg<R>(
  provider: ContextProvider,
  query: ContextQuery,
  options: LegOptions,
  finish: (outcome: LegOutcome) => R,
): Promise<R>;
export function runLeg<R>(
  provider: ContextProvider,
  query: ContextQuery,
  options: LegOptions,
  finish?: (outcome: LegOutcome) => R,
): Promise<R | LegOutcome> {
  const providerId = provider.id;
  const started = performance.now();
  const span = options.tracer === undefined ? undefined : startLegSpan(options.tracer, providerId);
  // Two closures per leg (the steps after the call), no more: the settling is a plain function.
  if (options.signal?.aborted) {
    const error = hostError("aborted", `query to "${providerId}" aborted`);
    return settleWith(failure(providerId, "aborted", error), (outcome) =>
      settleLeg(outcome, span, options, finish),
    );
  }
  if (!options.decoded) {
    const guarded = span === undefined ? options : { ...options, traceparent: span.traceparent };
    return askGuarded(provider, query, guarded, started).then((answer) =>
      settleLeg(
        answer.ok ? judge(providerId, query, answer.value, options, started) : answer.outcome,
        span,
        options,
        finish,
      ),
    );
  }
  // A transport of ours: its own deadline and abort, one promise and one step after it.
  let call: Promise<ContextQueryResult>;
  try {
    // The leg's options carry `signal` and `timeoutMs`, all a transport of ours reads of them.
    call = provider.query(
      query,
      span === undefined ? options : { ...options, traceparent: span.traceparent },
    );
  } catch (error) {
    return settleWith(failedLeg(providerId, error, started), (outcome) =>
      settleLeg(outcome, span, options, finish),
    );
  }
  return call.then(
    (value) => settleLeg(judge(providerId, query, value, options, started), span, options, finish),
    (error: unknown) => settleLeg(failedLeg(providerId, error, started), span, options, finish),
  );
}

/** Ends the leg's span, reports the outcome, and maps it by `finish` when there is one. */
function settleLeg<R>(
  outcome: LegOutcome,
  span: LegSpan | undefined,
  options: LegOptions,
  finish: ((outcome: LegOutcome) => R) | undefined,
): R | LegOutcome {
  span?.end(outcome);
  options.onOutcome?.(outcome);
  return finish === undefined ? outcome : finish(outcome);
}

function elapsedSince(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

/** The failure outcome of a leg whose query threw or rejected with `error`. */
export function failedLeg(providerId: string, error: unknown, started: number): LegOutcome {
  const reason = reasonOf(error);
  return failure(providerId, reason, asOcpError(providerId, reason, error), elapsedSince(started));
}

/**
 * Any other provider: it may throw, hang or ignore its signal, so the leg
 * races it against its own deadline and the caller's abort.
 */
async function askGuarded(
  provider: ContextProvider,
  query: ContextQuery,
  options: LegOptions & { readonly traceparent?: string },
  started: number,
): Promise<Answer> {
  const providerId = provider.id;
  const controller = new AbortController();
  const outer = options.signal;
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
    const { traceparent } = options;
    const traced = traceparent === undefined ? {} : { traceparent };
    call = Promise.resolve(provider.query(query, { signal: controller.signal, ...traced }));
  } catch (error) {
    call = Promise.reject(error);
  }
  // A provider that settles after its leg timed out must not become an unhandled rejection.
  call.catch(() => undefined);
  try {
    return { ok: true, value: await Promise.race([call, stopped]) };
  } catch (error) {
    const cause = controller.signal.aborted ? controller.signal.reason : error;
    return { ok: false, outcome: failedLeg(providerId, cause, started) };
  } finally {
    LEG_DEADLINES.clear(deadline);
    outer?.removeEventListener("abort", onOuterAbort);
  }
}

/** Parses (unless decoded), audits and classifies one answer. */
function judge(
  providerId: string,
  query: ContextQuery,
  value: unknown,
  options: LegOptions,
  started: number,
): LegOutcome {
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
    return failure(providerId, "invalid_response", error, elapsedSince(started));
  }
  const result = parsed.data;
  const audit = auditAnswer(query, result, { measureCosts: options.measureCosts !== false });
  const violations = audit.violations;
  // S1 on a result the lenient schema decoded; the strict schema only to word a failure.
  const strict =
    audit.verdict === "drop" || meetsStrictRules(audit.result)
      ? undefined
      : StrictContextQueryResultSchema.safeParse(audit.result);
  if (strict?.success === false) {
    // S1: what the reference's schema refuses (an empty id, an empty provenance type, …).
    const error = hostError(
      "invalid_response",
      `provider "${providerId}" answered with a result the envelope schema refuses (S1): ${describeIssues(strict.error)}`,
      { details: { providerId } },
    );
    return failure(providerId, "invalid_response", error, elapsedSince(started));
  }
  const latencyMs = elapsedSince(started);
  if (audit.verdict === "trim") {
    const trimmed: Trim = {
      providerId,
      violations,
      removed: audit.removed,
      message: describeViolations(providerId, query, result, violations, "trimmed"),
    };
    return { kind: "ok", providerId, result: audit.result, latencyMs, trimmed };
  }
  if (audit.verdict === "drop") {
    const liar: Liar = {
      providerId,
      violations,
      frames: result.frames,
      message: describeViolations(providerId, query, result, violations),
      latencyMs,
    };
    return { kind: "dropped", liar, result };
  }
  return { kind: "ok", providerId, result, latencyMs };
}
