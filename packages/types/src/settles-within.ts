/**
 * Waits for `work` to settle, but `ms` at most. Resolves true when it
 * settled in time (fulfilled or rejected: the caller only bounds the wait),
 * false otherwise. Never rejects; its timer is cleared either way. The
 * bounded waits of the transports, the hub and the bridges (shutdown
 * graces, draining) all use this one.
 */
export async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => true,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
