import { beforeAll, describe, expect, it } from "vitest";
import { type ConformanceReport, MISBEHAVE_MODES, type MisbehaveMode } from "../src/index.js";
import { evidenceOf, failed, pool, runHttp, statusOf } from "./helpers.js";
import { ADVISORY, EXPECTED } from "./modes.js";

const MODES = (Object.keys(MISBEHAVE_MODES) as MisbehaveMode[]).filter(
  (mode) => mode !== "crash-on-garbage",
);
const reports = new Map<MisbehaveMode | "honest", ConformanceReport>();

beforeAll(async () => {
  const all: (MisbehaveMode | "honest")[] = ["honest", "crash-on-garbage", ...MODES];
  const done = await pool(all, 3, (mode) => runHttp(mode === "honest" ? undefined : mode));
  for (const [index, mode] of all.entries()) reports.set(mode, done[index]!);
}, 120_000);

describe("runConformance over HTTP against the fixture", () => {
  it("the honest fixture passes every check; malformed-input-tolerance is skipped (R1 is stdio-only)", () => {
    const report = reports.get("honest")!;
    expect(failed(report)).toEqual([]);
    expect(
      report.checks.filter((check) => check.status === "skipped").map((check) => check.name),
    ).toEqual(["malformed-input-tolerance"]);
    expect(report.conformant).toBe(true);
    expect(report.target).toMatch(/^http: http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(evidenceOf(report, "shutdown-clean")).toBe("acknowledged shutdown with HTTP 204");
  });

  it.each(MODES)("--misbehave %s over HTTP fails exactly its check, with evidence", (mode) => {
    const report = reports.get(mode)!;
    const expected = EXPECTED[mode];
    expect(failed(report)).toEqual([expected.check]);
    expect(evidenceOf(report, expected.check)).toMatch(expected.http ?? expected.stdio);
    expect(report.conformant).toBe(ADVISORY.has(expected.check));
  });

  it("R1: crash-on-garbage goes unprobed over HTTP, and the report says the probe was skipped", () => {
    const report = reports.get("crash-on-garbage")!;
    expect(statusOf(report, "malformed-input-tolerance")).toBe("skipped");
    expect(evidenceOf(report, "malformed-input-tolerance")).toBe(
      "wire-level malformed-input probe: applies to stdio providers only",
    );
    expect(failed(report)).toEqual([]);
  });
});
