import { describeExit } from "../evidence.js";
import { type CheckResult, fail, pass, skip } from "../report.js";
import type { ShutdownOutcome } from "../session.js";

/** shutdown-clean (R2): on `shutdown`, a stdio provider exits with code 0; an HTTP one answers. */
export function judgeShutdown(outcome: ShutdownOutcome, elapsedMs: number): CheckResult {
  switch (outcome.kind) {
    case "exited":
      return outcome.code === 0 && outcome.signal === null
        ? pass("shutdown-clean", `exited with code 0 within ${elapsedMs} ms of shutdown`)
        : fail("shutdown-clean", `R2: ${describeExit(outcome)} on shutdown`);
    case "already-gone":
      return skip(
        "shutdown-clean",
        `the provider was already gone before shutdown (it ${describeExit(outcome)}); the check that saw it go reports it`,
      );
    case "answered":
      return pass("shutdown-clean", `acknowledged shutdown with HTTP ${outcome.status}`);
    case "connection-closed":
      return pass("shutdown-clean", `closed the connection on shutdown (${outcome.message})`);
    case "rejected":
      return fail("shutdown-clean", `R2: shutdown failed: ${outcome.message}`);
    case "ignored": {
      const then = {
        "exited-on-eof": "it exited only when its stdin was closed",
        killed: "its process group was killed",
        "still-running": "it survived SIGKILL to its process group",
        timeout: "no answer",
      }[outcome.after];
      return fail(
        "shutdown-clean",
        `R2: still running ${outcome.waitedMs} ms after shutdown; ${then}`,
      );
    }
  }
}
