import { beforeAll, describe, expect, it } from "vitest";
import {
  type CgpMisbehaveMode,
  type ConformanceReport,
  runCgpConformance,
  runConformance,
  runFamilyConformance,
} from "../src/index.js";
import { CGP_MISBEHAVE_MODES, chooseFamily, fixtureCommand } from "../src/internal.js";
import { fixtureScript, statuses } from "./cgp-helpers.js";
import { FAST, failed, pool } from "./helpers.js";

const MODES = Object.keys(CGP_MISBEHAVE_MODES) as CgpMisbehaveMode[];
const BOTH = MODES.filter((mode) => "ocp" in CGP_MISBEHAVE_MODES[mode]);
const CGP_ONLY = MODES.filter((mode) => !("ocp" in CGP_MISBEHAVE_MODES[mode]));
const ocp = new Map<CgpMisbehaveMode, ConformanceReport>();
let literal: ConformanceReport;
let future: ConformanceReport;

beforeAll(async () => {
  const done = await pool(MODES, 3, (mode) =>
    runConformance(fixtureCommand("--misbehave", mode), FAST),
  );
  for (const [index, mode] of MODES.entries()) ocp.set(mode, done[index]!);
  [literal, future] = await Promise.all([
    runCgpConformance(fixtureScript("spec-literal-provider.mjs"), FAST),
    runCgpConformance(fixtureScript("spec-literal-provider.mjs", "--future"), FAST),
  ]);
}, 240_000);

describe("one rulebook per family, chosen by the handshake", () => {
  it.each(BOTH)(
    "--misbehave %s is caught under ocp/1 too, by the ocp/1 check of the same rule",
    (mode) => {
      const expected = (CGP_MISBEHAVE_MODES[mode] as { ocp: string }).ocp;
      expect(failed(ocp.get(mode)!)).toEqual([expected]);
    },
  );

  it.each(CGP_ONLY)(
    "--misbehave %s breaks a rule ocp/1 does not have: the fixture answers ocp/1 honestly",
    (mode) => {
      const report = ocp.get(mode)!;
      expect(failed(report)).toEqual([]);
      expect(report.conformant).toBe(true);
    },
  );
});

describe("a CGP provider written from SPEC.md alone (standing in for upstream's honest provider)", () => {
  it("passes every check under contextgraph/1", () => {
    expect(failed(literal)).toEqual([]);
    expect(statuses(literal).every((status) => status.endsWith(":pass"))).toBe(true);
    expect(literal.conformant).toBe(true);
  });

  it("U1, U2, X1: sending unknown members, an unknown kind, a vendor relation and a vendor error code still passes", () => {
    expect(failed(future)).toEqual([]);
    expect(statuses(future)).toEqual(statuses(literal));
    expect(future.conformant).toBe(true);
  });
});

describe("--family auto", () => {
  it("judges a provider that acks contextgraph/1.0-draft under contextgraph/1", async () => {
    const decision = await chooseFamily(fixtureCommand(), FAST);
    expect(decision).toEqual({ family: "contextgraph/1", why: "acked contextgraph/1.0-draft" });
  });

  it("falls back to ocp/1 when the provider refuses contextgraph/1.0-draft by name, and judges it by ocp/1's rules", async () => {
    const report = await runFamilyConformance(fixtureScript("ocp-only-provider.mjs"), {
      ...FAST,
      family: "auto",
    });
    expect(report.family).toBe("ocp/1");
    expect(report.familyDecision).toMatch(
      /^refused contextgraph\/1\.0-draft by name: error \(no code\): "this provider speaks ocp\/1\.0-draft, not contextgraph\/1\.0-draft"$/,
    );
    expect(report.checks.map((check) => check.name)).toContain("cost-truth");
  });

  it("an ocp/1-only provider judged under contextgraph/1 fails the handshake, naming the refusal", async () => {
    const report = await runCgpConformance(fixtureScript("ocp-only-provider.mjs"), FAST);
    expect(failed(report)).toEqual(["handshake"]);
    expect(report.checks[0]!.evidence).toMatch(
      /^H1: the provider refused contextgraph\/1\.0-draft by name/,
    );
  });
});
