/**
 * Every misbehave mode of the fixture hub is caught by exactly the check
 * named for it; the honest fixture passes every deciding check.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  type FixtureHub,
  HUB_MISBEHAVE_MODES,
  type HubMisbehaveMode,
  runCompatibility,
  startFixtureHub,
} from "../src/index.js";

let hub: FixtureHub | undefined;

afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

describe("fixture hub", () => {
  it("honest: every deciding check passes, and the advisory ones it lacks say why they skip", async () => {
    hub = await startFixtureHub();
    const report = await runCompatibility({ hub: hub.url });
    const failing = report.checks.filter((c) => c.status === "fail");
    expect(failing).toEqual([]);
    expect(report.conformant).toBe(true);
    const skippedChecks = report.checks.filter((c) => c.status === "skipped");
    for (const check of skippedChecks) {
      expect(check.advisory).toBe(true);
      expect(check.evidence).toMatch(/does not offer|offers no|needs the federation fixture/);
    }
  }, 180_000);

  for (const [mode, catcher] of Object.entries(HUB_MISBEHAVE_MODES)) {
    it(`${mode}: caught by ${catcher}, and by no other check`, async () => {
      hub = await startFixtureHub({ misbehave: mode as HubMisbehaveMode });
      const report = await runCompatibility({ hub: hub.url });
      const failing = report.checks.filter((c) => c.status === "fail").map((c) => c.name);
      expect(failing).toEqual([catcher]);
      const caught = report.checks.find((c) => c.name === catcher)!;
      expect(caught.evidence.length).toBeGreaterThan(0);
      // Advisory catches decide only under --strict.
      expect(report.conformant).toBe(caught.advisory);
    }, 180_000);
  }
});
