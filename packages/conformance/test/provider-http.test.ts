import { beforeAll, describe, expect, it } from "vitest";
import type { ConformanceReport, HttpMisbehaveMode, MisbehaveMode } from "../src/index.js";
import { HTTP_MISBEHAVE_MODES, MISBEHAVE_MODES } from "../src/internal.js";
import { evidenceOf, failed, pool, runHttp, statusOf } from "./helpers.js";
import { ADVISORY, EXPECTED, EXPECTED_HTTP } from "./modes.js";

const MODES = Object.keys(MISBEHAVE_MODES) as MisbehaveMode[];
const HTTP_MODES = Object.keys(HTTP_MISBEHAVE_MODES) as HttpMisbehaveMode[];
type Mode = MisbehaveMode | HttpMisbehaveMode | "honest";
const reports = new Map<Mode, ConformanceReport>();

beforeAll(async () => {
  const all: Mode[] = ["honest", ...MODES, ...HTTP_MODES];
  const done = await pool(all, 3, (mode) => runHttp(mode === "honest" ? undefined : mode));
  for (const [index, mode] of all.entries()) reports.set(mode, done[index]!);
}, 180_000);

describe("runConformance over HTTP against the fixture", () => {
  it("the honest fixture passes every check, malformed-input-tolerance (R1) included", () => {
    const report = reports.get("honest")!;
    expect(report.checks.filter((check) => check.status !== "pass")).toEqual([]);
    expect(report.conformant).toBe(true);
    expect(report.target).toMatch(/^http: http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(evidenceOf(report, "shutdown-clean")).toBe("acknowledged shutdown with HTTP 204");
    expect(evidenceOf(report, "malformed-input-tolerance")).toBe(
      "refused 5 malformed requests with well-formed bad_request errors (HTTP 400) and still answered a valid query",
    );
  });

  it.each(MODES)("--misbehave %s over HTTP fails exactly its check, with evidence", (mode) => {
    const report = reports.get(mode)!;
    const expected = EXPECTED[mode];
    expect(report.checks.filter((c) => c.status === "fail" && c.name !== expected.check)).toEqual(
      [],
    );
    expect(failed(report)).toEqual([expected.check]);
    expect(evidenceOf(report, expected.check)).toMatch(expected.http ?? expected.stdio);
    expect(report.conformant).toBe(ADVISORY.has(expected.check));
  });

  it.each(HTTP_MODES)("HTTP-only --misbehave %s fails exactly its check, with evidence", (mode) => {
    const report = reports.get(mode)!;
    expect(failed(report)).toEqual([HTTP_MISBEHAVE_MODES[mode]]);
    expect(evidenceOf(report, HTTP_MISBEHAVE_MODES[mode])).toMatch(EXPECTED_HTTP[mode]);
    expect(report.conformant).toBe(false);
  });

  it("R1: a provider that dies on a malformed request is caught over HTTP too, on its first one", () => {
    const report = reports.get("crash-on-garbage")!;
    expect(statusOf(report, "malformed-input-tolerance")).toBe("fail");
    // The probe and the filters ran before the malformed requests: one fault, one failure.
    expect(statusOf(report, "frame-validity")).toBe("pass");
    expect(statusOf(report, "kinds-filter")).toBe("pass");
  });
});
