import { beforeAll, describe, expect, it } from "vitest";
import type { CgpMisbehaveMode, ConformanceReport } from "../src/index.js";
import { CGP_MISBEHAVE_MODES } from "../src/internal.js";
import { runCgpHttp, runCgpStdio, statuses } from "./cgp-helpers.js";
import { evidenceOf, failed, pool, statusOf } from "./helpers.js";

const MODES = Object.keys(CGP_MISBEHAVE_MODES) as CgpMisbehaveMode[];
const reports = new Map<CgpMisbehaveMode | "honest", ConformanceReport>();
let http: ConformanceReport;
const overHttp = new Map<CgpMisbehaveMode, ConformanceReport>();

/** The evidence each mode's one failing check must carry under contextgraph/1. */
const EVIDENCE: Record<CgpMisbehaveMode, RegExp> = {
  "lying-costs": /B1: .*99999|B3: /,
  "bad-score": /F1: frame "fixture:getting-started"/,
  "empty-citation": /F3: frame "fixture:getting-started"/,
  "bad-version":
    /^H1: acked protocol_version "contextgraph\/2\.0", not in the family contextgraph\/1/,
  "crash-on-query": /the probe query was not answered with frames: the provider exited with code 1/,
  "crash-on-garbage": /^R1: the provider exited with code 1 after malformed input 1 \(not JSON/,
  "under-report-cost": /B3: /,
  "bad-timestamp": /F4: frame "fixture:getting-started"/,
  "malformed-digest": /(F5|D1): /,
  "flood-frames": /B4: /,
  "drop-correlation-id": /^H4: declares correlation but reply 1 \(frames\) carries no id/,
  "lying-representation":
    /^P2: frame "fixture:getting-started": a compact frame lacks canonical_content_hash/,
  "ignore-as-of":
    /§6\.1: 1 frame\(s\) valid only after as_of=2026-07-01T00:00:00Z.*frame "fixture:configuration": valid_from 2026-08-01T00:00:00Z is after the as_of pin/,
  "accept-bad-embedding":
    /^E1: declares ocp-fixture-embed\/8\/l2 \(8 dimensions\) but scored a 1-dimension embedding into frames/,
  "rubber-stamp-verify":
    /^V3: "fixture:getting-started" => valid for a digest it never served \(a rubber stamp\)/,
  "hollow-verify": /^V2: declares verify but did not answer valid for 3 of 3 frame\(s\)/,
  "scope-lie": /^C5: egress scopes \[third-party-index\] are inconsistent with egress=false/,
};

beforeAll(async () => {
  const all: (CgpMisbehaveMode | "honest")[] = ["honest", ...MODES];
  const done = await pool(all, 3, (mode) => runCgpStdio(mode === "honest" ? undefined : mode));
  for (const [index, mode] of all.entries()) reports.set(mode, done[index]!);
  http = await runCgpHttp();
  const httpModes = MODES.filter((mode) => mode !== "crash-on-query");
  const viaHttp = await pool(httpModes, 3, (mode) => runCgpHttp(mode));
  for (const [index, mode] of httpModes.entries()) overHttp.set(mode, viaHttp[index]!);
}, 400_000);

describe("runCgpConformance (contextgraph/1) against the fixture", () => {
  it("the honest fixture passes every upstream check and ours over stdio", () => {
    const report = reports.get("honest")!;
    expect(statuses(report)).toEqual([
      "handshake:pass",
      "version-mismatch:pass",
      "consent-scope:pass",
      "frame-validity:pass",
      "budget-honesty:pass",
      "verify-honesty:pass",
      "as-of-temporal:pass",
      "correlation:pass",
      "embedding-fingerprint:pass",
      "malformed-input-tolerance:pass",
      "shutdown-clean:pass",
    ]);
    expect(report.conformant).toBe(true);
    expect(report.family).toBe("contextgraph/1");
    expect(report.cgpIdentity?.protocol_version).toBe("contextgraph/1.0-draft");
  });

  it("the honest fixture passes every check over HTTP too", () => {
    expect(statuses(http)).toEqual(statuses(reports.get("honest")!));
    expect(http.transport).toBe("http");
    expect(http.conformant).toBe(true);
  });

  it("names CGP's requirement ids on each check", () => {
    const ids = Object.fromEntries(
      reports.get("honest")!.checks.map((check) => [check.name, check.requirements]),
    );
    expect(ids["budget-honesty"]).toEqual(["B1", "B3", "B4", "P4"]);
    expect(ids["verify-honesty"]).toEqual(["V1", "V2", "V3", "V4"]);
    expect(ids.correlation).toEqual(["H4"]);
  });

  it.each(MODES.filter((mode) => mode !== "crash-on-query"))(
    "--misbehave %s is caught by exactly its check, with evidence naming the rule",
    (mode) => {
      const report = reports.get(mode)!;
      const check = CGP_MISBEHAVE_MODES[mode].contextgraph;
      expect(failed(report)).toEqual([check]);
      expect(evidenceOf(report, check)).toMatch(EVIDENCE[mode]);
      expect(report.conformant).toBe(false);
    },
  );

  it("--misbehave crash-on-query fails frame-validity and budget-honesty, not the handshake (as upstream)", () => {
    const report = reports.get("crash-on-query")!;
    expect(statusOf(report, "handshake")).toBe("pass");
    expect(failed(report)).toEqual(expect.arrayContaining(["frame-validity", "budget-honesty"]));
    expect(evidenceOf(report, "frame-validity")).toMatch(EVIDENCE["crash-on-query"]);
  });

  it("--misbehave bad-version skips every behavioural check (no provider was established)", () => {
    const report = reports.get("bad-version")!;
    expect(statusOf(report, "frame-validity")).toBe("skipped");
    expect(statusOf(report, "verify-honesty")).toBe("skipped");
  });

  it("--misbehave malformed-digest leaves nothing verifiable, so verify-honesty skips rather than fails", () => {
    expect(statusOf(reports.get("malformed-digest")!, "verify-honesty")).toBe("skipped");
  });
});

describe("runCgpConformance over HTTP against the fixture's --http server", () => {
  it.each(MODES.filter((mode) => mode !== "crash-on-query"))(
    "--misbehave %s is caught over HTTP by exactly its check",
    (mode) => {
      const report = overHttp.get(mode)!;
      expect(report.transport).toBe("http");
      expect(failed(report)).toEqual([CGP_MISBEHAVE_MODES[mode].contextgraph]);
    },
  );
});
