/**
 * What the two provider runs (ocp/1 in `run.ts`, contextgraph/1 in
 * `cgp/run.ts`) share: the options and their bounds, the probe query both
 * families send, the pool of connections a run opens, and the timed shutdown.
 */
import { judgeShutdown } from "./checks/shutdown.js";
import {
  HANDSHAKE_TIMEOUT_MS,
  MALFORMED_SETTLE_MS,
  PROBE_MAX_FRAMES,
  PROBE_MAX_TOKENS,
  positiveBound,
  QUERY_TIMEOUT_MS,
  SHUTDOWN_TIMEOUT_MS,
} from "./limits.js";
import type { CheckResult } from "./report.js";
import type { Recorded, Session } from "./session.js";
import { openSession, type Target } from "./targets.js";

export interface RunOptions {
  /** Advisory checks (kinds-filter, max-frames, correlation) decide the verdict too. */
  readonly strict?: boolean;
  /** Goal of the probe query; default the reference's ("conformance probe: …"). */
  readonly goal?: string;
  /** Budget of the probe query; default the reference's {@link PROBE_MAX_TOKENS}. */
  readonly maxTokens?: number;
  readonly handshakeTimeoutMs?: number;
  /**
   * How long the foreign-version handshake (H3) may go unanswered; default
   * `handshakeTimeoutMs`. `ocp-inspect --timeout` sets it with the query bound.
   */
  readonly mismatchTimeoutMs?: number;
  readonly queryTimeoutMs?: number;
  readonly shutdownTimeoutMs?: number;
  /** See {@link MALFORMED_SETTLE_MS}. */
  readonly malformedSettleMs?: number;
}

/** Every wait of a run, in milliseconds, each checked positive. */
export interface Bounds {
  readonly handshake: number;
  readonly mismatch: number;
  readonly query: number;
  readonly shutdown: number;
  readonly settle: number;
}

/** The bounds `options` ask for, each defaulted from `limits.ts`; throws on a bound that is not positive. */
export function resolveBounds(options: RunOptions): Bounds {
  const handshake = positiveBound(
    "handshakeTimeoutMs",
    options.handshakeTimeoutMs,
    HANDSHAKE_TIMEOUT_MS,
  );
  return {
    handshake,
    mismatch: positiveBound("mismatchTimeoutMs", options.mismatchTimeoutMs, handshake),
    query: positiveBound("queryTimeoutMs", options.queryTimeoutMs, QUERY_TIMEOUT_MS),
    shutdown: positiveBound("shutdownTimeoutMs", options.shutdownTimeoutMs, SHUTDOWN_TIMEOUT_MS),
    settle: positiveBound("malformedSettleMs", options.malformedSettleMs, MALFORMED_SETTLE_MS),
  };
}

/** The probe budget `options` ask for (default {@link PROBE_MAX_TOKENS}). */
export function probeTokens(options: RunOptions): number {
  return positiveBound("maxTokens", options.maxTokens, PROBE_MAX_TOKENS);
}

/**
 * The probe query of both families: the reference's sample query (4096
 * tokens, 8 frames, any kind). The empty lists fit either family's query type.
 */
export function sampleQuery(goal?: string, maxTokens: number = PROBE_MAX_TOKENS) {
  return {
    goal: goal ?? "conformance probe: return your most relevant frames",
    query_text: goal ?? "conformance probe",
    kinds: [] as never[],
    anchors: [] as never[],
    max_frames: PROBE_MAX_FRAMES,
    max_tokens: maxTokens,
  };
}

/** The connections a run opens, each recorded, all disposed of together at the end. */
export interface SessionPool {
  /** Opens a labelled connection to the run's target. */
  open(label: string): Session;
  /** Adds a connection opened elsewhere (another target or recorder) to the pool. */
  adopt(session: Session): Session;
  /** Disposes of every connection of the pool. */
  disposeAll(): Promise<void>;
}

export function sessionPool(target: Target, record: (entry: Recorded) => void): SessionPool {
  const sessions: Session[] = [];
  const adopt = (session: Session) => {
    sessions.push(session);
    return session;
  };
  return {
    open: (label) => adopt(openSession(target, label, record)),
    adopt,
    disposeAll: async () => {
      await Promise.all(sessions.map((session) => session.dispose()));
    },
  };
}

/** A promise and the function that settles it: the probe reply the malformed-input check waits for. */
export function deferred<T>(): {
  readonly promise: Promise<T>;
  readonly settle: (value: T) => void;
} {
  let settle!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    settle = resolve;
  });
  return { promise, settle };
}

/** Asks the provider to shut down within `boundMs` and judges the answer and its latency (R2). */
export async function timedShutdown(
  session: Session,
  boundMs: number,
): Promise<{ readonly check: CheckResult; readonly answered: boolean }> {
  const started = performance.now();
  const outcome = await session.shutdown(boundMs);
  return {
    check: judgeShutdown(outcome, Math.round(performance.now() - started)),
    answered: outcome.kind === "answered",
  };
}
