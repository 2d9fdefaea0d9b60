/**
 * Reconnect delays: exponential backoff with "equal jitter". Attempt `n`
 * (0-based) waits a random time in `[d/2, d]` where
 * `d = min(maxMs, baseMs * 2^n)`, so clients that lost the same hub at the
 * same moment do not all come back at the same moment, and none waits less
 * than half the nominal delay.
 */

export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  /** A uniform random number in [0, 1); `Math.random` by default. */
  random?: () => number;
}

/** The nominal (unjittered) delay of attempt `attempt`. */
export function nominalDelay(attempt: number, options: BackoffOptions): number {
  const exponent = Math.min(Math.max(0, Math.floor(attempt)), 30);
  return Math.min(options.maxMs, options.baseMs * 2 ** exponent);
}

/** The jittered delay of attempt `attempt`, in whole milliseconds within `[nominal/2, nominal]`. */
export function backoffDelay(attempt: number, options: BackoffOptions): number {
  const nominal = nominalDelay(attempt, options);
  const random = options.random ?? Math.random;
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.round(nominal / 2 + (nominal / 2) * r);
}
