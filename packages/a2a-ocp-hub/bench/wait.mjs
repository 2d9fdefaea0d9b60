// Waiting in the benches: poll a condition, bounded so a stuck run fails instead of hanging.

/** Resolves once `predicate()` holds, polled every `pollMs`; rejects after 300 s. */
export function waitFor(predicate, pollMs = 2) {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 300_000;
    const tick = () => {
      if (predicate()) resolve();
      else if (Date.now() > deadline) reject(new Error("bench timed out"));
      else setTimeout(tick, pollMs);
    };
    tick();
  });
}
