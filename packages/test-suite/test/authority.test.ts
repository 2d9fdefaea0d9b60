/**
 * The authority checks (docs/a2a-ocp-wire.md, "Authority"): `authorship`
 * and `membership` pass against our hub (an in-process `OCPHub` on a real
 * socket and SQLite file, open registration) and the honest fixture hub,
 * and each fixture mode that breaks one of them fails exactly that check.
 * `agent-authorship` against the fixture agent, honest and `accepts-overwrites`
 * (our agent: test/own-agent.test.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OCPHub } from "@ocp/a2a-ocp-hub";
import { afterEach, describe, expect, it } from "vitest";
import {
  type FixtureAgent,
  type FixtureHub,
  listenFixtureAgent,
  runCompatibility,
  startFixtureHub,
} from "../src/index.js";

const ONLY = ["authorship", "membership"];
let fixture: FixtureHub | undefined;
let agent: FixtureAgent | undefined;

afterEach(async () => {
  await fixture?.close();
  await agent?.close();
  fixture = undefined;
  agent = undefined;
});

describe("authority checks of a hub", () => {
  it("our hub (OCPHub, SQLite, open registration) passes authorship and membership, cards judged", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ocp-test-authority-"));
    const hub = await OCPHub.start({ dbPath: join(dir, "hub.sqlite") });
    try {
      const report = await runCompatibility({ hub: hub.url }, { only: ONLY, strict: true });
      expect(report.checks.map((c) => [c.name, c.status])).toEqual([
        ["authorship", "pass"],
        ["membership", "pass"],
      ]);
      const [authorship, membership] = report.checks;
      expect(authorship!.evidence).toContain("a node of another author, unsigned: not_author");
      expect(authorship!.evidence).toContain("signed with the relayer's key): authorship_invalid");
      expect(authorship!.evidence).toContain("a relay signed by its author was delivered");
      expect(membership!.evidence).toContain("lookups hide a private card and the team-only card");
    } finally {
      await hub.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("the honest fixture hub passes both, cards judged", async () => {
    fixture = await startFixtureHub();
    const report = await runCompatibility({ hub: fixture.url }, { only: ONLY, strict: true });
    expect(report.checks.map((c) => c.status)).toEqual(["pass", "pass"]);
    expect(report.checks[1]!.evidence).toContain("lookups hide a private card");
  }, 60_000);

  it("accepts-foreign-authors: authorship fails, every forged claim named; advisory, so still conformant", async () => {
    fixture = await startFixtureHub({ misbehave: "accepts-foreign-authors" });
    const report = await runCompatibility({ hub: fixture.url }, { only: ONLY });
    expect(report.checks.map((c) => [c.name, c.status])).toEqual([
      ["authorship", "fail"],
      ["membership", "pass"],
    ]);
    const evidence = report.checks[0]!.evidence;
    for (const label of [
      "node of another author, unsigned",
      "edge of another author",
      "forged author signature",
      "own author signature",
    ])
      expect(evidence).toContain(label);
    expect(report.conformant).toBe(true);
    expect(
      (await runCompatibility({ hub: fixture.url }, { only: ONLY, strict: true })).conformant,
    ).toBe(false);
  }, 60_000);

  it("trusts-profile-teams: membership fails on knowledge (direct and broadcast) and on the card; not conformant", async () => {
    fixture = await startFixtureHub({ misbehave: "trusts-profile-teams" });
    const report = await runCompatibility({ hub: fixture.url }, { only: ONLY });
    expect(report.checks.map((c) => [c.name, c.status])).toEqual([
      ["authorship", "pass"],
      ["membership", "fail"],
    ]);
    const evidence = report.checks[1]!.evidence;
    expect(evidence).toContain("a team node to bob reached bob");
    expect(evidence).toContain("a team node broadcast reached bob");
    expect(evidence).toContain("returned alice's team-only card");
    expect(report.conformant).toBe(false);
  }, 60_000);
});

describe("agent-authorship", () => {
  it("the honest fixture agent keeps each author's node; accepts-overwrites loses all three, named", async () => {
    agent = await listenFixtureAgent();
    const honest = await runCompatibility({ agent: agent.url }, { only: ["agent-authorship"] });
    expect(honest.checks.map((c) => c.status)).toEqual(["pass"]);
    await agent.close();
    agent = await listenFixtureAgent({ misbehave: "accepts-overwrites" });
    const report = await runCompatibility({ agent: agent.url }, { only: ["agent-authorship"] });
    const [check] = report.checks;
    expect(check!.status).toBe("fail");
    expect(check!.advisory).toBe(true);
    for (const label of [
      "under its own createdBy: the author's node is no longer found",
      "under the author's createdBy, unsigned: the author's node is no longer found",
      "forged author signature (signer the author, signed with the other's key): the author's node is no longer found",
    ])
      expect(check!.evidence).toContain(label);
    expect(report.conformant).toBe(true);
  }, 60_000);
});
