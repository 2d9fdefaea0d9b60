import { beforeAll, describe, expect, it } from "vitest";
import { type ConformanceReport, isConformant, type MisbehaveMode } from "../src/index.js";
import { MISBEHAVE_MODES } from "../src/internal.js";
import { evidenceOf, failed, pool, runStdio, statusOf } from "./helpers.js";
import { ADVISORY, EXPECTED } from "./modes.js";

const MODES = Object.keys(MISBEHAVE_MODES) as MisbehaveMode[];
const reports = new Map<MisbehaveMode | "honest", ConformanceReport>();

beforeAll(async () => {
  const all: (MisbehaveMode | "honest")[] = ["honest", ...MODES];
  const done = await pool(all, 3, (mode) => runStdio(mode === "honest" ? undefined : mode));
  for (const [index, mode] of all.entries()) reports.set(mode, done[index]!);
}, 120_000);

describe("runConformance over stdio against the fixture", () => {
  it("H1, H2, H3, F1, F2, F3, B1, T1, S1, K1, M1, X-CORR, R1, R2: the honest fixture passes every check", () => {
    const report = reports.get("honest")!;
    expect(report.checks.map((check) => [check.name, check.status])).toEqual(
      report.checks.map((check) => [check.name, "pass"]),
    );
    expect(report.conformant).toBe(true);
    expect(report.identity?.provider.name).toBe("ocp-fixture-provider");
    expect(report.probe?.frames.map((frame) => frame.citation_label)).toEqual([
      "getting-started.md L1-12",
      "retry.ts L20-23",
      "configuration.md L1-9",
    ]);
  });

  it("names the eleven checks in report order with their requirement ids", () => {
    expect(
      reports.get("honest")!.checks.map((check) => `${check.name}:${check.requirements.join("+")}`),
    ).toEqual([
      "handshake:H1+H2",
      "version-mismatch:H3",
      "frame-validity:F1+F2+F3",
      "budget-honesty:B1",
      "cost-truth:T1",
      "schema:S1",
      "kinds-filter:K1",
      "max-frames:M1",
      "correlation:X-CORR",
      "malformed-input-tolerance:R1",
      "shutdown-clean:R2",
    ]);
  });

  it.each(MODES)(
    "--misbehave %s fails exactly its check, with evidence naming the violation",
    (mode) => {
      const report = reports.get(mode)!;
      const expected = EXPECTED[mode];
      expect(MISBEHAVE_MODES[mode]).toBe(expected.check);
      expect(failed(report)).toEqual([expected.check]);
      expect(evidenceOf(report, expected.check)).toMatch(expected.stdio);
      expect(report.conformant).toBe(ADVISORY.has(expected.check));
      expect(isConformant(report.checks, true)).toBe(false);
    },
  );

  it("a hanging provider yields a failing check, not a hung suite; its shutdown still counts (R2)", () => {
    const report = reports.get("hang")!;
    expect(statusOf(report, "frame-validity")).toBe("fail");
    expect(statusOf(report, "budget-honesty")).toBe("skipped");
    expect(statusOf(report, "shutdown-clean")).toBe("pass");
    expect(evidenceOf(report, "malformed-input-tolerance")).toMatch(
      /failed as the probe query did/,
    );
  });

  it("a provider that crashes on a query is not failed twice: shutdown-clean is skipped with the reason", () => {
    const report = reports.get("crash-on-query")!;
    expect(statusOf(report, "shutdown-clean")).toBe("skipped");
    expect(evidenceOf(report, "shutdown-clean")).toMatch(
      /already gone before shutdown \(it exited with code 1\)/,
    );
  });

  it("R1: a provider that answers malformed input with error replies passes, and says how", () => {
    // How many replies beat the settle time depends on the machine's load; surviving all five does not.
    expect(evidenceOf(reports.get("honest")!, "malformed-input-tolerance")).toMatch(
      /^survived 5 malformed inputs \(\d answered, \d silently ignored\) and still answered a valid query$/,
    );
  });
});
