import { fileURLToPath } from "node:url";
import { Host } from "@ocp/host";
import { RULES, type RuleId } from "@ocp/types";
import { describe, expect, it } from "vitest";
import { type ConformanceReport, type MisbehaveMode, runConformance } from "../src/index.js";
import { fixtureCommand, MISBEHAVE_MODES, probeQuery } from "../src/internal.js";
import { FAST, pool } from "./helpers.js";

/** What `ocp-inspect` says by default: not conformant, conformant with advice, or clean. */
type SuiteVerdict = "fail" | "advisory" | "clean";
/** What `@ocp/host` does: refuses or drops the provider, trims its answers, or accepts them. */
type HostVerdict = "quarantine" | "trim" | "accept";

function suiteVerdict(report: ConformanceReport): SuiteVerdict {
  if (!report.conformant) return "fail";
  return report.checks.some((check) => check.status === "fail") ? "advisory" : "clean";
}

const MATCHING: Record<SuiteVerdict, HostVerdict> = {
  fail: "quarantine",
  advisory: "trim",
  clean: "accept",
};

/**
 * Drives `@ocp/host` against a stdio provider as a user would: adds it, fans
 * out the suite's probe query, then one with max_frames 1 and one for doc
 * frames only (so the extensions have something to bind), and shuts down.
 */
async function hostVerdict(command: string, args: readonly string[]): Promise<HostVerdict> {
  const host = new Host({ warn: () => {}, legTimeoutMs: 2_000, shutdownTimeoutMs: 1_500 });
  try {
    try {
      await host.addStdio({ id: "p", command, args: [...args], handshakeTimeoutMs: 15_000 });
    } catch {
      return "quarantine";
    }
    let trimmed = false;
    const probe = probeQuery();
    for (const query of [
      probe,
      { ...probe, max_frames: 1 },
      { ...probe, kinds: ["doc" as const] },
    ]) {
      const fan = await host.queryAll(query);
      if (fan.liars.length > 0 || fan.failures.length > 0) return "quarantine";
      if (fan.trimmed.length > 0) trimmed = true;
    }
    return trimmed ? "trim" : "accept";
  } finally {
    await host.shutdown();
  }
}

/**
 * Modes that break a rule the host never exercises, and why: the host speaks
 * its own version (H3 is about a foreign one) and never sends malformed input
 * (R1). Their rules say so (`none`), or the host refuses the mismatch itself.
 */
const NOT_EXERCISED: Partial<Record<MisbehaveMode, { rule: RuleId; why: string }>> = {
  "silent-on-mismatch": { rule: "H3", why: "the host never speaks a foreign family" },
  "crash-on-garbage": { rule: "R1", why: "the host never sends malformed input" },
  "hang-on-shutdown": { rule: "R2", why: "the host's shutdown kills what does not exit" },
};

const modes = Object.keys(MISBEHAVE_MODES) as MisbehaveMode[];

describe("the host and the suite reach the same verdict (one rule table)", () => {
  it("on every fixture misbehave mode, and on the honest fixture", async () => {
    const cases = [undefined, ...modes];
    const rows = await pool(cases, 2, async (mode) => {
      const target = fixtureCommand(...(mode === undefined ? [] : ["--misbehave", mode]));
      const report = await runConformance(target, FAST);
      const host = await hostVerdict(target.command, target.args);
      return { mode: mode ?? "honest", suite: suiteVerdict(report), host };
    });
    for (const row of rows) {
      const exempt = NOT_EXERCISED[row.mode as MisbehaveMode];
      if (exempt !== undefined) {
        const rule = RULES.find((entry) => entry.id === exempt.rule)!;
        expect(row.suite, `${row.mode}: ${exempt.why}`).toBe(rule.suite);
        expect(row.host, `${row.mode}: ${exempt.why}`).toBe("accept");
        continue;
      }
      expect(`${row.mode}: host ${row.host}`).toBe(`${row.mode}: host ${MATCHING[row.suite]}`);
    }
    // Each verdict is reached at least once: the comparison is not vacuous.
    expect(new Set(rows.map((row) => row.host))).toEqual(new Set(["quarantine", "trim", "accept"]));
    // Sixteen runs, two at a time, each spawning several node children: minutes on a loaded machine.
  }, 240_000);

  it("on a provider behaving like the Rust reference's example: conformant with advice, trimmed, never dropped", async () => {
    const replay = fileURLToPath(new URL("./fixtures/reference-replay.mjs", import.meta.url));
    const report = await runConformance({ command: process.execPath, args: [replay] }, FAST);
    expect(suiteVerdict(report)).toBe("advisory");
    expect(await hostVerdict(process.execPath, [replay])).toBe("trim");
  });
});
