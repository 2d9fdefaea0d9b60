import type { Verdict } from "./context.js";

/** Resolves with the check's verdict, a failure when it throws, or a failure after `ms`. */
export function bounded(promise: Promise<Verdict>, ms: number): Promise<Verdict> {
  return new Promise<Verdict>((resolve) => {
    const timer = setTimeout(
      () => resolve({ status: "fail", evidence: `the check did not finish within ${ms} ms` }),
      ms,
    );
    promise.then(
      (verdict) => {
        clearTimeout(timer);
        resolve(verdict);
      },
      (error: unknown) => {
        clearTimeout(timer);
        resolve({
          status: "fail",
          evidence: error instanceof Error ? error.message : String(error),
        });
      },
    );
  });
}
