// Bounded waits of the demos: every step has a deadline, so a
// broken link makes the demo fail with the step's name instead of hanging.

/** Longest wait of one step, ms. */
export const STEP_TIMEOUT_MS = 20_000;

/** `promise`, or a rejection naming `what` after `ms`. */
export function bounded(promise, what, ms = STEP_TIMEOUT_MS) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out: ${what}`)), ms);
    promise.finally(() => clearTimeout(timer)).then(resolve, reject);
  });
}

/** Polls `test` (sync or async) every 50 ms until it returns a truthy value; that value. */
export async function until(test, what, ms = STEP_TIMEOUT_MS) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await test();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
